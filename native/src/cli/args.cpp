#include "args.hpp"

#include <charconv>

namespace fastmedian::cli {

Args::Args(const std::vector<std::string>& words, const std::set<std::string>& known) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w.size() < 2 || w[0] != '-') {
            positionals_.push_back(w);
            continue;
        }
        const std::size_t eq = w.find('=');
        const std::string name = w.substr(0, eq);
        if (known.count(name) == 0) throw UsageError("unknown option " + name);
        if (options_.count(name) != 0) throw UsageError(name + " is given twice");
        if (eq != std::string::npos) {
            options_[name] = w.substr(eq + 1);
        } else {
            // The next word is the value even if it starts with '-' ("--cval -5").
            if (i + 1 == words.size()) throw UsageError(name + " needs a value");
            options_[name] = words[++i];
        }
    }
}

const std::string* Args::get(const std::string& name) const {
    const auto it = options_.find(name);
    return it == options_.end() ? nullptr : &it->second;
}

std::string shown(const std::string& value) { return value.empty() ? "''" : value; }

bool parse_int(const std::string& text, int& value) {
    const char* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, value);
    return r.ec == std::errc() && r.ptr == end && !text.empty();
}

bool parse_double(const std::string& text, double& value) {
    const char* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, value);
    return r.ec == std::errc() && r.ptr == end && !text.empty();
}

std::vector<std::string> take_flags(const std::vector<std::string>& words,
                                    const std::set<std::string>& valued,
                                    const std::map<std::string, bool*>& flags) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        for (const auto& [name, flag] : flags)
            if (w.compare(0, name.size() + 1, name + "=") == 0) throw UsageError(name + " takes no value");
        if (const auto f = flags.find(w); f != flags.end()) {
            if (*f->second) throw UsageError(w + " is given twice");
            *f->second = true;
            continue;
        }
        rest.push_back(w);
        if (valued.count(w) != 0 && i + 1 < words.size()) rest.push_back(words[++i]);
    }
    return rest;
}

}  // namespace fastmedian::cli
