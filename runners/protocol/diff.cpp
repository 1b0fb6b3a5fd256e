// runners/protocol/diff.cpp: walks two JSON values in step and stops at the first place
// where they differ. Objects are compared key by key in the left's order, then
// keys only on the right; arrays element by element, then by length.
#include "diff.hpp"

#include "oracle/printable.hpp"

namespace concord {
namespace {

std::string escape_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::optional<Difference> walk(const ojson& a, const ojson& b, const std::string& ptr) {
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      std::string p = ptr + "/" + escape_token(it.key());
      if (!b.contains(it.key())) return Difference{p, it.value(), nullptr, false, true};
      if (auto d = walk(it.value(), b[it.key()], p)) return d;
    }
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key()))
        return Difference{ptr + "/" + escape_token(it.key()), nullptr, it.value(), true, false};
    return std::nullopt;
  }
  if (a.is_array() && b.is_array()) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; i++)
      if (auto d = walk(a[i], b[i], ptr + "/" + std::to_string(i))) return d;
    if (a.size() > n) return Difference{ptr + "/" + std::to_string(n), a[n], nullptr, false, true};
    if (b.size() > n) return Difference{ptr + "/" + std::to_string(n), nullptr, b[n], true, false};
    return std::nullopt;
  }
  if (a == b) return std::nullopt;
  return Difference{ptr, a, b, false, false};
}

}  // namespace

std::optional<Difference> first_difference(const ojson& left, const ojson& right) { return walk(left, right, ""); }

std::optional<Difference> first_causal_difference(const ojson& left, const ojson& right) {
  if (!left.is_object() || !right.is_object()) return walk(left, right, "");
  // An error against a result: the rest of the two is not comparable.
  if (left.value("ok", ojson()) != right.value("ok", ojson())) {
    bool l = left.contains("ok"), r = right.contains("ok");
    return Difference{"/ok", l ? left["ok"] : ojson(), r ? right["ok"] : ojson(), !l, !r};
  }
  for (const char* key : kCausalOrder) {
    bool l = left.contains(key), r = right.contains(key);
    std::string p = std::string("/") + key;
    if (l && r) {
      if (auto d = walk(left[key], right[key], p)) return d;
    } else if (l != r) {
      return Difference{p, l ? left[key] : ojson(), r ? right[key] : ojson(), !l, !r};
    }
  }
  return walk(left, right, "");
}

std::vector<std::string> pointer_tokens(const std::string& pointer) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < pointer.size() && pointer[at] == '/') {
    size_t next = pointer.find('/', at + 1);
    std::string tok = pointer.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    std::string plain;
    for (size_t i = 0; i < tok.size(); i++) {
      if (tok[i] == '~' && i + 1 < tok.size()) {
        plain += tok[i + 1] == '1' ? '/' : '~';
        i++;
      } else {
        plain += tok[i];
      }
    }
    out.push_back(plain);
    if (next == std::string::npos) break;
    at = next;
  }
  return out;
}

std::string describe(const Difference& d, const std::string& left_name, const std::string& right_name) {
  auto show = [](const ojson& v, bool missing) {
    return missing ? std::string("(absent)") : printable(v.dump(-1, ' ', false, ojson::error_handler_t::replace));
  };
  return "first difference at " + (d.pointer.empty() ? std::string("/") : d.pointer) + "\n  " + left_name + ": " +
         show(d.left, d.left_missing) + "\n  " + right_name + ": " + show(d.right, d.right_missing) + "\n";
}

}  // namespace concord
