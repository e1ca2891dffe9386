#!/usr/bin/env bash
# Checks what `mvn package` lays out for Fiji users in fiji-plugin/target/fiji/ (copied into
# Fiji.app as it is): the plugin jar (an underscore in its name, plugins.config inside), the
# binding jar carrying the native library, lib/linux64/. Then runs Debian's ImageJ from that
# folder alone (jars/ on the class path, as Fiji puts it; plugins/ as its plugins folder; no
# library path or system property) and checks that "Median (fastmedian)..." loads the native
# library from the jar and gives ImageJ's own Median result.
#   scripts/check-fiji-package.sh        (after mvn package; scripts/test.sh runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
site=fiji-plugin/target/fiji
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
fail() { echo "check-fiji-package: $*" >&2; exit 1; }

plugin=$site/plugins/fastmedian_plugin-$version.jar
binding=$site/jars/fastmedian-$version.jar
[ -f "$plugin" ] || fail "missing $plugin"
[ -f "$binding" ] || fail "missing $binding"
[ -f "$site/lib/linux64/libfastmedian_jni.so" ] || fail "missing $site/lib/linux64/libfastmedian_jni.so"
grep -q '^plugins.config ' <<<"$(python3 -m zipfile -l "$plugin")" ||
  fail "$plugin has no plugins.config"
grep -q '^native/linux-x86_64/libfastmedian_jni.so ' <<<"$(python3 -m zipfile -l "$binding")" ||
  fail "$binding does not carry the native library"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
image=$(readlink -f ../shared/data/embryos_grey.tif)
[ -f "$image" ] || image=$(readlink -f data/embryos_grey.tif)
cat >"$work/check.ijm" <<EOF
open("$image");
original = getTitle();
run("Duplicate...", "title=theirs");
run("Median...", "radius=2");
selectImage(original);
run("Duplicate...", "title=ours");
run("Median (fastmedian)...", "radius=2");
imageCalculator("Difference create", "ours", "theirs");
getStatistics(area, mean, min, max);
print("fastmedian package check: max difference " + max);
print(getInfo("log"));
EOF
log=$work/imagej.log
xvfb-run -a java -Dplugins.dir="$(readlink -f "$site")" -cp "/usr/share/java/ij.jar:$binding" \
  ij.ImageJ -batch "$work/check.ijm" >"$log" 2>&1 || { cat "$log"; fail "ImageJ failed"; }
grep -q "fastmedian package check: max difference 0$" "$log" || { cat "$log"; fail "results differ"; }
grep -q "Median (fastmedian): radius 2" "$log" || { cat "$log"; fail "no fastmedian log line"; }
echo "check-fiji-package: $site ok; ImageJ ran Median (fastmedian)... from it, equal to Median..."
