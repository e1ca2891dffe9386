// Command-line words: options, positionals and strictly parsed numbers. Every mistake is a
// UsageError whose message names the parameter.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fastmedian::cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Args {
public:
    // Every option in `known` takes a value, as "--name value" or "--name=value"; other words
    // are positionals. Unknown, repeated or valueless options are UsageErrors.
    Args(const std::vector<std::string>& words, const std::set<std::string>& known);

    const std::vector<std::string>& positionals() const { return positionals_; }
    // The option's value, or nullptr when it was not given.
    const std::string* get(const std::string& name) const;

private:
    std::map<std::string, std::string> options_;
    std::vector<std::string> positionals_;
};

// Takes the value-less flags out of `words` (Args knows only options with values), setting
// *flags.at(name) for each one given; "--flag=value" and a repeated flag are UsageErrors. The
// value of an option in `valued` stays with it, even one that looks like a flag.
std::vector<std::string> take_flags(const std::vector<std::string>& words,
                                    const std::set<std::string>& valued,
                                    const std::map<std::string, bool*>& flags);

// A value as messages show it: as typed, or '' when empty.
std::string shown(const std::string& value);

// True when the whole of `text` is a decimal integer ("5x", " 5" and "" are not).
bool parse_int(const std::string& text, int& value);
// True when the whole of `text` is a decimal number; "nan" and "inf" are, callers decide if
// they fit.
bool parse_double(const std::string& text, double& value);

}  // namespace fastmedian::cli
