// oracle/printable.cpp: printable(): one pass over UTF-8, escaping what a terminal
// would not show as itself.
#include "printable.hpp"

#include <cstdint>

namespace concord {
namespace {

// Code points shown as \u{...}: C1 controls; the bidi marks, embeddings, overrides
// and isolates; zero-width and invisible characters; line and paragraph separators;
// the byte order mark.
bool hidden(uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0xad || c == 0x61c || c == 0x180e || (c >= 0x200b && c <= 0x200f) ||
         (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
}

const char kHex[] = "0123456789abcdef";

void byte_escape(std::string& out, unsigned char b) {
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// The length of the UTF-8 sequence at s[i] and its code point; 0 when malformed
// (overlong, surrogate, beyond U+10FFFF, truncated).
size_t decode(std::string_view s, size_t i, uint32_t& cp) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  size_t n = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b <= 0xdf ? 2 : 0;
  if (n == 0 || b >= 0xf5 || i + n > s.size()) return 0;
  cp = b & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
  for (size_t k = 1; k < n; k++) {
    unsigned char c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (b == '\n')
        out += "\\n";
      else if (b == '\r')
        out += "\\r";
      else if (b == '\t')
        out += "\\t";
      else if (b < 0x20 || b == 0x7f)
        byte_escape(out, b);
      else
        out += static_cast<char>(b);
      i++;
      continue;
    }
    uint32_t cp = 0;
    size_t n = decode(s, i, cp);
    if (n == 0) {
      byte_escape(out, b);
      i++;
    } else if (hidden(cp)) {
      out += "\\u{";
      std::string hex;
      for (uint32_t v = cp; v; v >>= 4) hex.insert(hex.begin(), kHex[v & 15]);
      out += hex + "}";
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace concord
