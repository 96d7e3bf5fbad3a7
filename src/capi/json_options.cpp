// parse_options_json (json_options.hpp): a recursive-descent reader of the subset of JSON that
// config options need.
#include "json_options.hpp"

#include <limits>

namespace dimsum::capi {
namespace {

class Reader {
 public:
  Reader(std::string_view text, std::string& err) : s_(text), err_(err) {}

  bool object(JsonObject& out) {
    skip_space();
    if (!eat('{')) return fail("the options must be a JSON object, {\"field\": value, ...}");
    skip_space();
    if (eat('}')) return end();
    while (true) {
      std::string key;
      skip_space();
      if (!string(key)) return false;
      skip_space();
      if (!eat(':')) return fail("':' expected after a key");
      JsonValue value;
      if (!this->value(value, 1)) return false;
      for (const auto& kv : out) {
        if (kv.first == key) return fail("field '" + key + "' is given twice");
      }
      out.emplace_back(std::move(key), std::move(value));
      skip_space();
      if (eat('}')) return end();
      if (!eat(',')) return fail("',' or '}' expected");
    }
  }

 private:
  bool value(JsonValue& v, int depth) {
    if (depth > kMaxJsonDepth) return fail("arrays nested too deep");
    skip_space();
    if (eat('[')) {
      v.is_array = true;
      skip_space();
      if (eat(']')) return true;
      while (true) {
        v.items.emplace_back();
        if (!value(v.items.back(), depth + 1)) return false;
        skip_space();
        if (eat(']')) return true;
        if (!eat(',')) return fail("',' or ']' expected");
      }
    }
    if (word("true")) return v.number = 1, true;
    if (word("false")) return v.number = 0, true;
    if (word("null")) return fail("null is not a value a field takes (give an integer)");
    if (at_end()) return fail("a value expected");
    if (s_[i_] == '"') return fail("a string is not a value a field takes (give an integer: see docs/C_API.md)");
    return number(v.number);
  }

  bool number(int64_t& out) {
    const size_t start = i_;
    const bool negative = eat('-');
    if (at_end() || s_[i_] < '0' || s_[i_] > '9') return fail("a value expected (an integer, true, false or [...])");
    // |value| accumulated as unsigned, so that INT64_MIN is read; beyond int64 is refused
    const uint64_t limit = negative ? uint64_t{1} << 63 : uint64_t{std::numeric_limits<int64_t>::max()};
    uint64_t magnitude = 0;
    while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(s_[i_++] - '0');
      if (magnitude > (limit - digit) / 10) return fail("integer out of the int64 range");
      magnitude = magnitude * 10 + digit;
    }
    if (!at_end() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) {
      i_ = start;
      return fail("a number with a fraction or exponent: fields take integers");
    }
    out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
  }

  // A key: plain printable ASCII, no escapes (every field name is a C identifier).
  bool string(std::string& out) {
    if (!eat('"')) return fail("a key in double quotes expected");
    while (!at_end() && s_[i_] != '"') {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '\\' || c < 0x20 || c > 0x7e) return fail("a key is a field name (letters, digits, '_')");
      out.push_back(s_[i_++]);
    }
    if (!eat('"')) return fail("unterminated key");
    return true;
  }

  bool end() {
    skip_space();
    if (!at_end()) return fail("text after the object");
    return true;
  }

  bool word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool eat(char c) {
    if (at_end() || s_[i_] != c) return false;
    ++i_;
    return true;
  }
  void skip_space() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool at_end() const { return i_ >= s_.size(); }
  bool fail(const std::string& why) {
    err_ = "options JSON, at character " + std::to_string(i_) + ": " + why;
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string& err_;
};

}  // namespace

bool parse_options_json(std::string_view text, JsonObject& out, std::string& err) {
  out.clear();
  return Reader(text, err).object(out);
}

}  // namespace dimsum::capi
