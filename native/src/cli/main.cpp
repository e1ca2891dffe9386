// fastmedian: exact median filters over TIFF files. Exit codes: 0 success, 1 runtime error
// (I/O, device), 2 usage error; every error is one line on stderr.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "file_pairs.hpp"
#include "fastmedian/fastmedian.hpp"

namespace fastmedian::cli {

const char* const kUsage = R"(usage:
  fastmedian median IN.tif OUT.tif (--size K | --radius R) [options]
      Exact 2D median of every page of IN.tif, written to OUT.tif (same type; u8, u16, f32).
      --size K        square K x K window, K odd, 1..1023
      --radius R      circular window of ImageJ's Median... radius R, 0..511
      --3d            the 3D median of the pages as one volume: a K x K x K box for --size
                      (K at most 255), ImageJ's 3D Median ellipsoid of radius R for
                      --radius (R at most 127); either at most 1048576 voxels (a box of
                      101 x 101 x 101, or 255 x 255 x 15 with --zsize; radius 63)
      --zsize KZ      with --3d --size: the box's depth in pages (odd; default K)
      --zradius RZ    with --3d --radius: the ellipsoid's radius in pages (default R);
                      each channel and frame of an ImageJ hyperstack is a volume of its own
                      (its slices; its frames where it has no slices); without --3d every
                      page is filtered
      --border MODE   replicate (default; scipy 'nearest'), reflect, mirror, constant, wrap
                      (with --3d, along z as well)
      --cval V        the outside value for --border constant (default 0)
      --backend B     auto (default: first CUDA device, else CPU), cpu, cuda
      --devices LIST  CUDA devices to spread the pages over (2D only): indices (0,1) or all;
                      default: the first
      OUT.tif is written completely or not at all, and never over IN.tif.
      e.g. fastmedian median stack.tif denoised.tif --radius 2      (ImageJ's Median, radius 2)
           fastmedian median stack.tif denoised.tif --radius 2 --3d --zradius 1
  fastmedian temporal IN.tif OUT.tif (--window N | --project) [options]
      Per-pixel median over N frames (the pages of IN.tif) for every frame, the window
      centred on it and shifted inward at the first and last frames; written to OUT.tif.
      --window N      frames in each median, 1..65535 and at most the stack's pages;
                      even N takes the lower middle, with one frame more before than after
      --project       the median of all frames instead, one plane (ImageJ's Z Project >
                      Median; an even count takes the lower middle, where ImageJ averages
                      the two middles into a 32-bit image); one plane for each channel and
                      slice of a hyperstack
      --mode M        median (default): the median itself; subtract: frame - median + offset
      --offset V      added in --mode subtract (rounded, then clamped for 8/16-bit images);
                      default 0, from -1e9 to 1e9
      --backend B     auto (default), cpu, cuda
      The frames of each channel and slice of an ImageJ hyperstack are filtered on their
      own (its slices, for each channel, where it has no frames).
      OUT.tif is written completely or not at all, and never over IN.tif.
      e.g. fastmedian temporal movie.tif moving.tif --window 50 --mode subtract --offset 100
           fastmedian temporal movie.tif background.tif --project
  fastmedian background IN.tif OUT.tif (--size K | --radius R) [options]
      Large-window median background of every page of IN.tif (uneven illumination,
      autofluorescence), subtracted from the page or written itself; to OUT.tif (same type).
      --size K        square K x K window, K odd, 1..1023 (e.g. 65)
      --radius R      circular window of ImageJ's Median... radius R, 0..511 (method exact)
      --method M      exact (default): the exact median, as `median`; separable: a 1D
                      median of K along y, then along x (approximate, faster; --size only)
      --output O      subtract (default): page - background + offset (clamped for 8/16-bit
                      images); background: the background itself
      --offset V      added in --output subtract (rounded for 8/16-bit images); default 0,
                      from -1e9 to 1e9
      --border MODE   replicate (default), reflect, mirror, constant, wrap
      --cval V        the outside value for --border constant (default 0)
      --backend B     auto (default), cpu, cuda
      --devices LIST  CUDA devices to spread the pages over: indices (0,1) or all;
                      default: the first
      OUT.tif is written completely or not at all, and never over IN.tif.
      e.g. fastmedian background stack.tif flat.tif --size 65 --offset 100
  fastmedian convolve IN.tif OUT.tif (--kernel MASK.txt | --gaussian SIGMA) [options]
      2D convolution of every page of IN.tif (true convolution, as scipy.ndimage.convolve),
      summed in float; written to OUT.tif in the input's type (clamped, then rounded to
      nearest, halves away from zero) or as float.
      --kernel FILE   the mask: one row per line, numbers separated by spaces (ImageJ's
                      Convolve text form); odd width and height, 1..63. It is flipped, as
                      scipy's convolve does; ImageJ's Convolve... lays it on unflipped
                      (the Fiji command turns it to match ImageJ)
      --gaussian S    Gaussian blur of standard deviation S, 0 < S <= 127: scipy's mask
                      (radius int(4 S + 0.5), normalised), as a column and a row pass
      --normalize     divide the --kernel mask by its sum (which must not be 0)
      --float         write 32-bit float pixels
      --border MODE   replicate (default), reflect, mirror, constant, wrap
      --cval V        the outside value for --border constant (default 0)
      --backend B     auto (default), cpu, cuda
      --devices LIST  CUDA devices to spread the pages over: indices (0,1) or all;
                      default: the first
      OUT.tif is written completely or not at all, and never over IN.tif.
      e.g. fastmedian convolve stack.tif smooth.tif --gaussian 2
  fastmedian info
      Version, whether CUDA is compiled in, and the CUDA devices (or why there are none).
  fastmedian --version
      The version alone.
  fastmedian demo [--out PATH] [--backend B]
      5x5 median of the embryos image in the source tree's data/ folder (or in
      $FASTMEDIAN_DATA_DIR); writes PATH (default: fastmedian-demo.tif in $TMPDIR or /tmp).
  Every command that reads a TIFF (median, temporal, background, convolve, demo) also takes
      --max-memory B  the most memory the input and output planes may take together, in
                      bytes or with K, M or G (KiB, MiB, GiB): 512M, 8G. Default: the
                      machine's memory. median (also --3d), background, convolve and
                      temporal stream a larger stack from file to file in runs of planes
                      within it (temporal: at least N + 1 frames; median --3d: a slice
                      and the 2 RZ it reaches); temporal --project holds the whole stack,
                      median --3d --border wrap each volume; each refuses a larger one
                      before its pixels are read
  Every output keeps its input's metadata: ImageJ's hyperstack axes, calibration, labels
      and lookup tables, the resolution tags and OME-XML (with the pixel type written).
      RGB TIFFs (24-bit, or ImageJ's 48-bit) are filtered channel by channel.
  median, temporal, background and convolve show a progress line on a terminal (the planes
      read, filtered and written, the rate, the time left), and also take
      --quiet         no progress line and no summary line: only errors are printed
      --out-dir DIR   every path given is an input (IN.tif ... instead of IN.tif OUT.tif),
                      written into the existing folder DIR under its own file name, one
                      after another; a file that fails is reported and the rest still run
                      (exit status: the worst of them)
      e.g. fastmedian median data/*.tif --out-dir denoised --radius 2
  fastmedian help | --help
)";

namespace {

int run(const std::vector<std::string>& words) {
    if (words.empty()) throw UsageError("no command given");
    const std::string& command = words[0];
    const std::vector<std::string> rest(words.begin() + 1, words.end());
    if (command == "--version") {
        if (!rest.empty()) throw UsageError("--version takes nothing else");
        std::cout << "fastmedian " << version() << "\n";
        return 0;
    }
    // "help" as the command; --help or -h anywhere ("fastmedian median --help").
    const bool help = command == "help" ||
                      std::find(words.begin(), words.end(), "--help") != words.end() ||
                      std::find(words.begin(), words.end(), "-h") != words.end();
    if (help) {
        std::cout << kUsage;
        return 0;
    }
    if (command == "median") return median_command(rest);
    if (command == "temporal") return temporal_command(rest);
    if (command == "background") return background_command(rest);
    if (command == "convolve") return convolve_command(rest);
    if (command == "info") return info_command(rest);
    if (command == "demo") return demo_command(rest);
    throw UsageError("unknown command '" + command + "'");
}

}  // namespace

}  // namespace fastmedian::cli

int main(int argc, char** argv) {
    using namespace fastmedian;
    try {
        return cli::run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (...) {
        return cli::tell_failure();
    }
}
