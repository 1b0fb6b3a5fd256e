// export/export.cpp: the format names, the literals every format writes its data
// with, and writing an export's files.
#include "export.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <sstream>

#include "oracle/error.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/protocol/load.hpp"
#include "runners/protocol/safe_names.hpp"

namespace concord {

std::optional<ExportFormat> parse_export_format(const std::string& name) {
  if (name == "ct") return ExportFormat::kCt;
  if (name == "exunit") return ExportFormat::kExunit;
  if (name == "c") return ExportFormat::kC;
  if (name == "gtest") return ExportFormat::kGtest;
  if (name == "json") return ExportFormat::kJson;
  return std::nullopt;
}

const char* export_format_names() { return "ct, exunit, c, gtest, json"; }

Exported export_case(const Case& c, ExportFormat f) {
  switch (f) {
    case ExportFormat::kCt: return export_ct(c);
    case ExportFormat::kExunit: return export_exunit(c);
    case ExportFormat::kC: return export_c(c);
    case ExportFormat::kGtest: return export_gtest(c);
    case ExportFormat::kJson: return export_json(c);
  }
  throw std::logic_error("export_case: unknown format");
}

std::string comment_lines(const std::string& s, const std::string& prefix, size_t width) {
  std::istringstream words(comment_text(s));
  std::string out, line, w;
  while (words >> w) {
    if (!line.empty() && prefix.size() + line.size() + 1 + w.size() > width) {
      out += prefix + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  if (!line.empty()) out += prefix + line + "\n";
  return out;
}

std::vector<ExportedFile> runtime_sources(const std::string& dir, const std::vector<std::string>& suffixes,
                                          const std::string& into) {
  namespace fs = std::filesystem;
  std::vector<ExportedFile> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    for (const std::string& suffix : suffixes)
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.push_back({into + "/" + name, read_file(it->path().string())});
  }
  if (out.empty())
    throw InputError(dir, "the runtime's sources are not here: export needs concord's build tree or an install");
  std::sort(out.begin(), out.end(), [](const ExportedFile& a, const ExportedFile& b) { return a.path < b.path; });
  return out;
}

const char* support_expect_erl() {
  return
#include "support_concord_expect_erl.inc"
      ;
}

const char* support_first_difference() {
  return
#include "support_first_difference_h.inc"
      ;
}

const char* support_concord_cases_py() {
  return
#include "support_concord_cases_py.inc"
      ;
}

// Every path is checked before the first write: an export is all inside dir or none of it.
void write_exported(const std::string& dir, const Exported& e) {
  std::vector<std::string> paths;
  for (const ExportedFile& f : e.files) paths.push_back(path_inside(dir, f.path, "export into " + dir));
  for (size_t i = 0; i < paths.size(); i++) write_file_atomic(paths[i], e.files[i].text);
}

namespace {

bool printable(unsigned char b) { return b >= 0x20 && b < 0x7f; }

void octal(std::string& out, unsigned char b) {
  out += '\\';
  out += char('0' + (b >> 6));
  out += char('0' + ((b >> 3) & 7));
  out += char('0' + (b & 7));
}

}  // namespace

// Three-digit octal escapes, so that a digit after one never extends it; `?` too
// (no trigraph can form).
std::string c_literal(const std::string& s) {
  std::string out = "\"";
  size_t since_break = 0;
  for (unsigned char b : s) {
    if (since_break >= 100) {
      out += "\"\n    \"";
      since_break = 0;
    }
    if (b == '"' || b == '\\')
      out += {'\\', char(b)};
    else if (printable(b) && b != '?')
      out += char(b);
    else
      octal(out, b);
    since_break++;
  }
  return out + "\"";
}

// Bytes, never characters: a binary literal of escapes is the same bytes whatever
// the source file's encoding.
std::string erlang_binary(const std::string& s) {
  std::string out = "<<\"";
  for (unsigned char b : s) {
    if (b == '"' || b == '\\')
      out += {'\\', char(b)};
    else if (printable(b))
      out += char(b);
    else
      octal(out, b);
  }
  return out + "\">>";
}

// A quoted atom: any bytes in, an atom of exactly those bytes out.
std::string erlang_atom(const std::string& s) {
  std::string out = "'";
  for (unsigned char b : s) {
    if (b == '\'' || b == '\\')
      out += {'\\', char(b)};
    else if (printable(b))
      out += char(b);
    else
      octal(out, b);
  }
  return out + "'";
}

std::string camel_words(const std::string& s) {
  std::string out;
  bool upper = true;
  for (unsigned char ch : s) {
    bool alnum = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (!alnum)
      upper = true;
    else
      out += upper ? char(std::toupper(ch)) : char(ch), upper = false;
  }
  return out;
}

std::string snake_words(const std::string& s) {
  std::string out;
  for (unsigned char ch : s)
    out += (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? char(ch) : '_';
  return out;
}

namespace {

// The length of the well-formed UTF-8 sequence of a character at s[i] that a comment
// may hold (2 to 4 bytes), or 0: not UTF-8, overlong, a surrogate, a C1 control, or a
// character some language ends a line at or that reorders what is shown (U+2028,
// U+2029, the bidirectional controls).
size_t comment_char(const std::string& s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = at(i);
  size_t n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = b & (0x7f >> n);
  for (size_t k = 1; k < n; k++) {
    if ((at(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (at(i + k) & 0x3f);
  }
  bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  bool bad = cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f || cp == 0x2028 || cp == 0x2029 ||
             (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
             cp == 0x061c;
  return overlong || bad ? 0 : n;
}

}  // namespace

// Never "*/", which would end a C comment. UTF-8 text stays ("§6.5"); other bytes,
// controls and backslashes become spaces.
std::string comment_text(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (size_t n = b >= 0x80 ? comment_char(s, i) : 0) {
      out += s.substr(i, n);
      i += n - 1;
      continue;
    }
    char c = printable(b) && b != '\\' ? char(b) : ' ';
    if (c == '/' && !out.empty() && out.back() == '*') out += ' ';
    out += c;
  }
  return out;
}

}  // namespace concord
