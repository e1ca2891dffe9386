#!/usr/bin/env bash
# Runs the native GPU checks on the GPU machine (through the device tool) from a build made
# here for sm_90 and carried as build/ (the GPU machine has no GoogleTest, libtiff or shared/):
#   here:   cmake --preset default && cmake --build --preset default && scripts/device-tests.sh prepare
#   device: scripts/device-tests.sh [PART...] (carry: build)
# Parts, all of them by default, in this order:
#   core        the core GoogleTest suite
#   cuda-slow   the CUDA suites whose CPU references take minutes (background, pipeline)
#   cuda        the other CUDA suites (CUDA against the CPU reference)
#   checks      compute-sanitizer memcheck, and the CLI with --backend cuda against --backend cpu
#               on the real images of shared/data (2D median, the 3D median on the two stacks,
#               and the temporal median on the time-lapse)
#   policies    every architecture's GPU policy forced on this GPU (CudaPolicies), then the
#               cuda part again under the smallest (sm_75: 64 KB of shared memory a block)
# All of them take about 500 s on the H100, near the device tool's 600 s a call: split them over
# two calls (say `core cuda-slow`, then `cuda checks`).
# Logs go to $OUT; a short summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = prepare ]; then
  # libtiff and its codecs, and the shared images, travel inside build/.
  mkdir -p build/device/lib build/device/data
  ldd build/native/src/cli/fastmedian | awk '/=> \// {print $3}' |
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libfastmedian)\.so' |
    xargs -I{} cp -L {} build/device/lib/
  cp ../shared/data/*.tif build/device/data/
  du -sh build
  exit 0
fi

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(core cuda-slow cuda checks policies)
for part in "${parts[@]}"; do
  case "$part" in
    core | cuda-slow | cuda | checks | policies) ;;
    *) echo "device-tests.sh: unknown part '$part' (core, cuda-slow, cuda, checks, policies)" >&2; exit 2 ;;
  esac
done

out=${OUT:-/tmp/fastmedian-device}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build/native/src:$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

summary=()
gtest() {  # gtest NAME BINARY [FILTER]
  "$2" --gtest_brief=1 ${3:+--gtest_filter="$3"} >"$out/$1.log" 2>&1
  summary+=("$1 rc=$?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$1.log" | tr '\n' ' ')")
}
slow='CudaBackground.*:CudaPipeline.*'

core() { gtest core build/tests/fastmedian_core_tests; }
cuda-slow() { gtest cuda-slow build/tests/fastmedian_cuda_tests "$slow"; }
cuda() { gtest cuda build/tests/fastmedian_cuda_tests "-$slow"; }
policies() {
  gtest policies build/tests/fastmedian_cuda_tests 'EveryArchitecture/*:GpuPolicies.*:CudaArchitectures.*'
  FASTMEDIAN_GPU_POLICY=sm_75 gtest cuda-under-sm_75 build/tests/fastmedian_cuda_tests "-$slow:EveryArchitecture/*"
  FASTMEDIAN_GPU_POLICY=sm_75 build/native/src/cli/fastmedian info >"$out/info-sm_75.log" 2>&1
  summary+=("info under FASTMEDIAN_GPU_POLICY=sm_75: $(grep 'CUDA device 0' "$out/info-sm_75.log")")
}

checks() {
  compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/fastmedian_cuda_tests \
    --gtest_filter='*LargerImage*:*OddShapes*:*LargeWindowsOnFloat*:*LargeWindowsOnACallersStream*:*LargeWindowScratch*:*Temporal*DeviceViews*:*Background*DeviceViews*:*Background*EqualsNaive*:*Median3D*:*BandsOfImagesShorter*' --gtest_brief=1 >"$out/memcheck.log" 2>&1
  summary+=("memcheck rc=$?: $(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)")

  # The CLI on real images: CUDA output must equal CPU output byte for byte.
  cli=build/native/src/cli/fastmedian
  $cli info >"$out/cli.log" 2>&1
  same=0 differ=0
  for img in embryos_grey BPAE_actin cancer_cell_migration_crop Bead_Image1_crop; do
    for win in "--size 3" "--size 7" "--radius 2" "--radius 5"; do
      for border in replicate reflect mirror constant wrap; do
        args=(median "build/device/data/$img.tif" /tmp/fm_cpu.tif $win --border "$border" --backend cpu)
        $cli "${args[@]}" >>"$out/cli.log" 2>&1
        $cli median "build/device/data/$img.tif" /tmp/fm_gpu.tif $win --border "$border" \
          --backend cuda >>"$out/cli.log" 2>&1
        if cmp -s /tmp/fm_cpu.tif /tmp/fm_gpu.tif; then same=$((same + 1))
        else differ=$((differ + 1)); echo "DIFFER: $img $win $border" >>"$out/cli.log"; fi
      done
    done
  done
  summary+=("cli real images, cuda vs cpu: $same identical, $differ different")
  # Where there are several GPUs: the pages spread over all of them, equal to the CPU.
  if [ "$(nvidia-smi -L | wc -l)" -gt 1 ]; then
    same=0 differ=0
    for img in cancer_cell_migration_crop Bead_Image1_crop; do
      for args in "median --size 3" "median --radius 5" "background --size 65 --method separable" \
                  "convolve --gaussian 2"; do
        set -- $args
        $cli "$1" "build/device/data/$img.tif" /tmp/fm_cpu.tif "${@:2}" --backend cpu >>"$out/cli.log" 2>&1
        $cli "$1" "build/device/data/$img.tif" /tmp/fm_gpu.tif "${@:2}" --devices all >>"$out/cli.log" 2>&1
        if cmp -s /tmp/fm_cpu.tif /tmp/fm_gpu.tif; then same=$((same + 1))
        else differ=$((differ + 1)); echo "DIFFER: --devices all $img $args" >>"$out/cli.log"; fi
      done
    done
    summary+=("cli --devices all vs cpu: $same identical, $differ different")
  fi
  # The 3D median on the two stacks: every tiled window, a generic one, every border.
  same=0 differ=0
  for img in Bead_Image1_crop cancer_cell_migration_crop; do
    for win in "--size 3" "--size 5" "--radius 1" "--radius 2" "--radius 3 --zradius 1"; do
      for border in replicate reflect mirror constant wrap; do
        for backend in cpu cuda; do
          $cli median "build/device/data/$img.tif" "/tmp/fm_$backend.tif" $win --3d \
            --border "$border" --backend "$backend" >>"$out/cli.log" 2>&1
        done
        if cmp -s /tmp/fm_cpu.tif /tmp/fm_cuda.tif; then same=$((same + 1))
        else differ=$((differ + 1)); echo "DIFFER: 3d $img $win $border" >>"$out/cli.log"; fi
      done
    done
  done
  summary+=("cli 3D median on the stacks, cuda vs cpu: $same identical, $differ different")
  # The temporal median on the real time-lapse (48 frames), every network size and the sliding
  # median, both modes.
  same=0 differ=0
  for n in 2 3 4 5 9 10 11 25 48; do
    for mode in "--mode median" "--mode subtract --offset 100"; do
      for backend in cpu cuda; do
        $cli temporal build/device/data/cancer_cell_migration_crop.tif "/tmp/fm_$backend.tif" \
          --window "$n" $mode --backend "$backend" >>"$out/cli.log" 2>&1
      done
      if cmp -s /tmp/fm_cpu.tif /tmp/fm_cuda.tif; then same=$((same + 1))
      else differ=$((differ + 1)); echo "DIFFER: temporal $n $mode" >>"$out/cli.log"; fi
    done
  done
  summary+=("cli temporal on the real movie, cuda vs cpu: $same identical, $differ different")
  summary+=("cli demo: $($cli demo --out /tmp/fm_demo.tif 2>&1 | grep -E '^median')")
}

for part in "${parts[@]}"; do "$part"; done
printf '%s\n' "${summary[@]}"
