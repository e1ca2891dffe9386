// fastmedian convolve IN.tif OUT.tif (--kernel MASK.txt | --gaussian SIGMA) [--normalize]
//                     [--float] [--border B] [--cval V] [--backend B] [--devices LIST]
//                     [--max-memory BYTES]
#include <cmath>
#include <iostream>
#include <set>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/convolve.hpp"
#include "filter_args.hpp"
#include "file_pairs.hpp"
#include "filter_file.hpp"
#include "mask_file.hpp"

namespace fastmedian::cli {

namespace {

const std::set<std::string> kValued = {"--kernel", "--gaussian", "--border", "--cval", "--backend",
                                       "--devices", "--max-memory", "--out-dir"};

}  // namespace

int convolve_command(const std::vector<std::string>& args) {
    bool normalize = false, as_float = false, quiet = false;
    const Args a(take_flags(args, kValued,
                            {{"--normalize", &normalize}, {"--float", &as_float}, {"--quiet", &quiet}}),
                 kValued);
    const std::vector<FilePair> files = file_pairs(a, "convolve");
    const std::string* kernel = a.get("--kernel");
    const std::string* gaussian = a.get("--gaussian");
    if ((kernel == nullptr) == (gaussian == nullptr))
        throw UsageError("convolve needs exactly one of --kernel MASK.txt or --gaussian SIGMA");
    ConvolveOptions o;
    std::string what;
    if (gaussian != nullptr) {
        double sigma = 0.0;
        if (!parse_double(*gaussian, sigma) || !std::isfinite(sigma) || sigma <= 0.0 ||
            sigma > kMaxGaussianSigma)
            throw UsageError("--gaussian must be a number above 0 and at most " +
                             format_number("%g", kMaxGaussianSigma) + ", got " + shown(*gaussian));
        if (normalize)
            throw UsageError("--normalize applies only to --kernel (the Gaussian mask is normalised already)");
        o = ConvolveOptions::gaussian(sigma);
        const std::string k = std::to_string(o.row_mask.size());
        what = "gaussian sigma " + format_number("%g", sigma) + " (" + k + "x" + k + " separable)";
    }
    // Options first, then the mask file: a mistyped option is reported before any file is read.
    parse_border_and_cval(a, o.border, o.cval);
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    if (const std::string* d = a.get("--devices")) o.devices = parse_devices(*d, o.backend);
    if (kernel != nullptr) {
        const MaskFile m = read_mask_file(*kernel, "--kernel", ConvolveOptions::kMaxMaskSize);
        double sum = 0.0;
        for (float w : m.values) sum += w;
        if (normalize && sum == 0.0)
            throw UsageError("--normalize needs a mask whose sum is not 0; " + *kernel + " sums to 0");
        o.mask = m.values;
        o.mask_width = m.width;
        o.mask_height = m.height;
        o.normalize = normalize;
        what = "convolve " + std::to_string(m.width) + "x" + std::to_string(m.height) +
               (normalize ? " normalized" : "");
    }
    o.output = as_float ? ConvolveOutput::f32 : ConvolveOutput::same;
    what += std::string(" ") + border_name(o.border);
    if (o.border == Border::constant) what += " " + format_number("%g", o.cval);
    if (as_float) what += ", float output";

    StackFilter f;
    f.backend = o.backend;
    f.float_output = as_float;
    f.max_memory = parse_max_memory(a);
    f.progress = !quiet;
    f.check = [&o](const std::string&, const tiff::StackHeader& h, std::int64_t) {
        check_cval(o.border, o.cval, h.type);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t) {
        return convolve(src, dst, o);
    };
    return run_each(files, [&](const FilePair& p) {
        const FilterResult r = filter_file(p.in, p.out, f);
        if (!quiet) std::cout << summary(what, r, p.out) << "\n";
    });
}

}  // namespace fastmedian::cli
