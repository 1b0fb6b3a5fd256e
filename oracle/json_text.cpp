// oracle/json_text.cpp: a SAX handler that builds the document and stops at the
// first duplicate key or number out of range, knowing the JSON pointer of the value
// being read; excessive nesting is refused by byte before. nlohmann's parser is
// iterative under SAX, so no input can exhaust the stack here.
#include "json_text.hpp"

#include <cstdint>
#include <optional>
#include <vector>

#include "error.hpp"

namespace concord {
namespace {

// The exact integer a JSON number token denotes, when it is one in
// [-2^63, 2^64-1]; nullopt for a fraction or a value out of that range.
std::optional<ojson> exact_integer(const std::string& token) {
  size_t i = 0;
  bool negative = i < token.size() && token[i] == '-';
  if (negative) i++;
  std::string digits;    // the significand's digits, without the point
  int64_t exponent = 0;  // value = digits * 10^exponent
  for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; i++) digits += token[i];
  if (i < token.size() && token[i] == '.')
    for (i++; i < token.size() && token[i] >= '0' && token[i] <= '9'; i++) {
      digits += token[i];
      exponent--;
    }
  if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
    i++;
    bool neg_exp = i < token.size() && token[i] == '-';
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) i++;
    int64_t e = 0;
    for (; i < token.size() && token[i] >= '0' && token[i] <= '9'; i++)
      if (e < 100000) e = e * 10 + (token[i] - '0');  // beyond that, the answer is settled anyway
    exponent += neg_exp ? -e : e;
  }
  if (i != token.size()) return std::nullopt;
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return ojson(0u);  // zero, however written (also -0.0)
  digits.erase(0, first);
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    exponent++;
  }
  if (exponent < 0) return std::nullopt;                                         // a fraction remains
  if (static_cast<int64_t>(digits.size()) + exponent > 20) return std::nullopt;  // beyond 2^64
  digits.append(static_cast<size_t>(exponent), '0');
  uint64_t mag = 0;
  for (char c : digits) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (mag > (UINT64_MAX - d) / 10) return std::nullopt;
    mag = mag * 10 + d;
  }
  if (!negative) return ojson(mag);
  if (mag > (uint64_t{1} << 63)) return std::nullopt;
  return ojson(static_cast<int64_t>(~mag + 1));
}

class Builder : public nlohmann::json_sax<ojson> {
 public:
  explicit Builder(JsonTextOptions opt) : opt_(opt) {}

  ojson root;
  std::optional<InputError> error;

  bool null() override { return put(ojson(nullptr)); }
  bool boolean(bool v) override { return put(ojson(v)); }
  bool number_integer(number_integer_t v) override { return put(ojson(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put(ojson(v)); }
  bool number_float(number_float_t v, const string_t& token) override {
    if (opt_.exact_integers)
      if (std::optional<ojson> i = exact_integer(token)) return put(std::move(*i));
    return put(ojson(v));
  }
  bool string(string_t& v) override { return put(ojson(std::move(v))); }
  bool binary(binary_t&) override { return put(ojson(nullptr)); }  // not produced by text input

  bool start_object(std::size_t) override { return open(ojson::object()); }
  bool start_array(std::size_t) override { return open(ojson::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (f.value->contains(k)) {
      error.emplace(pointer() + "/" + escaped(k), "duplicate key '" + k + "' (SPEC §13: each key at most once)");
      return false;
    }
    f.key = k;
    return true;
  }

  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override {
    if (e.id == 406)  // out_of_range: a number beyond a double (1e400)
      error.emplace(value_pointer(), std::string("number out of range: ") + e.what());
    else
      error.emplace("byte " + std::to_string(byte), std::string("malformed JSON: ") + e.what());
    return false;
  }

 private:
  struct Frame {
    ojson* value;
    std::string key;   // object: the key of the value being read
    size_t index = 0;  // array: the index of the value being read
  };

  static std::string escaped(const std::string& key) {  // RFC 6901
    std::string out;
    for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
  }

  std::string pointer() const {  // of the innermost open container
    std::string out;
    for (size_t i = 0; i + 1 < stack_.size(); i++) out += "/" + step(stack_[i]);
    return out;
  }
  std::string step(const Frame& f) const { return f.value->is_object() ? escaped(f.key) : std::to_string(f.index); }
  std::string value_pointer() const {  // of the value being read
    return stack_.empty() ? "" : pointer() + "/" + step(stack_.back());
  }

  // Places a value in the innermost container (or as the root); returns where it went.
  ojson* place(ojson v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& f = stack_.back();
    if (f.value->is_object()) {
      ojson& slot = (*f.value)[f.key];
      slot = std::move(v);
      return &slot;
    }
    f.value->push_back(std::move(v));
    f.index++;
    return &f.value->back();
  }

  bool put(ojson v) {
    place(std::move(v));
    return true;
  }

  bool open(ojson container) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonNesting) {
      error.emplace(value_pointer(), "JSON nested deeper than " + std::to_string(kMaxJsonNesting) + " levels");
      return false;
    }
    // The parent's index moves on when the child closes: the pointer of a value
    // inside the child names the child by the index it is being read at.
    ojson* where = nullptr;
    if (!stack_.empty() && stack_.back().value->is_array()) {
      stack_.back().value->push_back(std::move(container));
      where = &stack_.back().value->back();
    } else {
      where = place(std::move(container));
    }
    stack_.push_back(Frame{where, "", 0});
    return true;
  }

  bool close() {
    stack_.pop_back();
    if (!stack_.empty() && stack_.back().value->is_array()) stack_.back().index++;
    return true;
  }

  JsonTextOptions opt_;
  // Each frame points at an element of its parent, which stays put: values are only
  // ever added to the innermost open container.
  std::vector<Frame> stack_;
};

// Too deep a document is refused before parsing, by byte: no JSON pointer of such
// a depth would help, and a reader that checks a pointer by walking the document
// would need as deep a walk.
void check_nesting(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        i++;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting)
        throw InputError("byte " + std::to_string(i + 1),
                         "JSON nested deeper than " + std::to_string(kMaxJsonNesting) + " levels");
    } else if (c == ']' || c == '}') {
      depth--;
    }
  }
}

}  // namespace

ojson parse_json_text(const std::string& text, JsonTextOptions opt) {
  check_nesting(text);
  Builder b(opt);
  bool ok = ojson::sax_parse(text, &b);
  if (b.error) throw *b.error;
  if (!ok) throw InputError("byte " + std::to_string(text.size()), "malformed JSON");
  return std::move(b.root);
}

}  // namespace concord
