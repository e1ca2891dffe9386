#!/usr/bin/env bash
# Regenerates the README's pictures of the Fiji command, from data/embryos_grey.tif (CC-BY 4.0,
# see data/README.md) with 5% salt-and-pepper noise added (a fixed seed, so the same pixels):
#   fiji-plugin/docs/median-dialog.png        ImageJ with the "Median (fastmedian)..." dialog open
#   fiji-plugin/docs/median-before-after.png  the noisy image, and after Median (fastmedian) radius 2
# Runs Debian's ImageJ with the plugin that mvn package lays out in fiji-plugin/target/fiji/,
# under Xvfb (no window manager, so windows have no title bars); the dialog is captured with
# ImageJ's Capture Screen.
#   scripts/fiji-screenshots.sh        (after mvn package)
set -euo pipefail
cd "$(dirname "$0")/.."
site=$(readlink -f fiji-plugin/target/fiji)
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
binding=$site/jars/fastmedian-$version.jar
[ -f "$binding" ] || { echo "fiji-screenshots: no $binding; run mvn package first" >&2; exit 1; }
docs=$(readlink -f fiji-plugin/docs)
image=$(readlink -f data/embryos_grey.tif)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The noisy image, as both macros open it.
cat >"$work/noisy.ijm" <<EOF
function openNoisy() {
    open("$image");
    rename("embryos with noise");
    random("seed", 7);
    w = getWidth();
    h = getHeight();
    for (i = 0; i < 0.05 * w * h; i++)
        setPixel(floor(random * w), floor(random * h), 255 * round(random));
    updateDisplay();
}
EOF

cat "$work/noisy.ijm" - >"$work/before-after.ijm" <<EOF
setBatchMode(true);
openNoisy();
run("Duplicate...", "title=after");
run("Median (fastmedian)...", "radius=2");
run("Combine...", "stack1=[embryos with noise] stack2=after");
saveAs("PNG", "$docs/median-before-after.png");
EOF

# The command runs in a thread of its own (doCommand), so the macro goes on while its dialog is
# open; then only the part of the screen that holds the windows is kept: ImageJ's bar above the
# image's window, from its left edge.
cat "$work/noisy.ijm" - >"$work/dialog.ijm" <<EOF
openNoisy();
getLocationAndSize(x, y, w, h);
doCommand("Median (fastmedian)...");
wait(3000);
run("Capture Screen");
makeRectangle(x, 0, 610, y + h);
run("Crop");
saveAs("PNG", "$docs/median-dialog.png");
run("Quit");
EOF

run_imagej() {
  xvfb-run -a -s "-screen 0 1024x768x24" timeout 120 java -Dplugins.dir="$site" \
    -cp "/usr/share/java/ij.jar:$binding" ij.ImageJ "$@" >"$work/imagej.log" 2>&1 ||
    { cat "$work/imagej.log" >&2; echo "fiji-screenshots: ImageJ failed" >&2; exit 1; }
}
run_imagej -batch "$work/before-after.ijm"
run_imagej -macro "$work/dialog.ijm"
ls -l "$docs"/median-dialog.png "$docs"/median-before-after.png
