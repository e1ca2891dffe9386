// fastmedian background IN.tif OUT.tif (--size K | --radius R) [--method exact|separable]
//                       [--output subtract|background] [--offset V] [--border B] [--cval V]
//                       [--backend B] [--devices LIST] [--max-memory BYTES]
#include <iostream>
#include <set>

#include "args.hpp"
#include "commands.hpp"
#include "fastmedian/background.hpp"
#include "filter_args.hpp"
#include "file_pairs.hpp"
#include "filter_file.hpp"

namespace fastmedian::cli {

int background_command(const std::vector<std::string>& args) {
    const std::set<std::string> valued = {"--size",   "--radius",  "--method",     "--output",
                                          "--offset", "--border",  "--cval",       "--backend",
                                          "--devices", "--max-memory", "--out-dir"};
    bool quiet = false;
    const Args a(take_flags(args, valued, {{"--quiet", &quiet}}), valued);
    const std::vector<FilePair> files = file_pairs(a, "background");
    BackgroundOptions o;
    o.window = parse_window(a, "background");
    if (const std::string* m = a.get("--method")) o.method = parse_background_method(*m, "--method");
    if (o.method == BackgroundMethod::separable && o.window.shape != Window::Shape::square)
        throw UsageError("--method separable needs --size K (a square window), not --radius");
    if (const std::string* v = a.get("--output")) o.output = parse_background_output(*v, "--output");
    if (const std::string* v = a.get("--offset")) {
        if (o.output != BackgroundOutput::subtract)
            throw UsageError("--offset applies only to --output subtract");
        o.offset = parse_offset(*v);
    }
    parse_border_and_cval(a, o.border, o.cval);
    if (const std::string* b = a.get("--backend")) o.backend = parse_backend(*b, "--backend");
    if (const std::string* d = a.get("--devices")) o.devices = parse_devices(*d, o.backend);

    StackFilter f;
    f.backend = o.backend;
    f.max_memory = parse_max_memory(a);
    f.progress = !quiet;
    f.check = [&o](const std::string&, const tiff::StackHeader& h, std::int64_t) {
        check_cval(o.border, o.cval, h.type);
    };
    f.run = [&o](const ConstImageView& src, const ImageView& dst, std::int64_t) {
        return background(src, dst, o);
    };
    std::string what = std::string("background ") + background_method_name(o.method) + " " +
                       describe(o.window, o.border, o.cval) + ", " +
                       background_output_name(o.output);
    if (o.output == BackgroundOutput::subtract) what += " offset " + format_number("%g", o.offset);
    return run_each(files, [&](const FilePair& p) {
        const FilterResult r = filter_file(p.in, p.out, f);
        if (!quiet) std::cout << summary(what, r, p.out) << "\n";
    });
}

}  // namespace fastmedian::cli
