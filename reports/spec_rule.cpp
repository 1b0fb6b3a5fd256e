// reports/spec_rule.cpp: a rule's section, anchor and text, from SPEC.md.
#include "spec_rule.hpp"
#include "targets/common/build_paths.hpp"

#include <cctype>
#include <fstream>
#include <sstream>
#include <vector>

#include "targets/common/install_paths.hpp"

namespace concord {
namespace {

struct OpText {
  const char *json, *text;
  bool unary;
};
const OpText kOps[] = {
#define OP(e, json, text, prec) {json, text, prec == 0},
#include "oracle/ops.def"
#undef OP
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to '-'.
std::string anchor_of(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c) || c == '_' || c == '-' || c >= 0x80)
      out += static_cast<char>(std::tolower(c));
    else if (c == ' ')
      out += '-';
  }
  return out;
}

// The row of §5's table for an operator: its first cell shows `a OP b` or `OPa`.
bool row_of_operator(const std::string& row, const OpText& op) {
  std::string text = op.text;
  if (text == "|") text = "\\|";  // escaped in a Markdown table
  std::string cell = row.substr(0, row.find('|', 1));
  return cell.find(op.unary ? "`" + text + "a`" : "a " + text + " b") != std::string::npos;
}

// Words too common in the spec to pick a paragraph.
bool is_stop_word(const std::string& w) {
  return w.size() < 3 || w == "before" || w == "type" || w == "the" || w == "and";
}

}  // namespace

std::string spec_md_path() {
  std::string share = installed_share_dir();
  return share.empty() ? std::string(build_paths::spec_md) : share + "/spec/SPEC.md";
}

std::optional<SpecRule> spec_rule(const std::string& rule, const std::string& spec_text, const std::string& file) {
  std::vector<std::string> words = words_of(rule);
  if (words.empty() || words[0].rfind("§", 0) != 0) return std::nullopt;
  std::string section = words[0].substr(std::string("§").size());
  words.erase(words.begin());
  std::vector<std::string> lines = lines_of(spec_text);
  // "## 5. Expressions" or "### 6.5 Send and delivery"; the section ends at the next heading.
  size_t at = lines.size();
  std::string heading;
  for (size_t i = 0; i < lines.size() && at == lines.size(); i++) {
    const std::string& l = lines[i];
    size_t hashes = l.find_first_not_of('#');
    if (hashes == 0 || hashes == std::string::npos || l[hashes] != ' ') continue;
    std::string h = l.substr(hashes + 1);
    if (h.rfind(section + ". ", 0) == 0 || h.rfind(section + " ", 0) == 0) {
      at = i;
      heading = h;
    }
  }
  if (at == lines.size()) return std::nullopt;
  std::vector<std::vector<std::string>> paragraphs(1);
  for (size_t i = at + 1; i < lines.size() && lines[i].rfind("#", 0) != 0; i++) {
    if (lines[i].empty()) {
      if (!paragraphs.back().empty()) paragraphs.emplace_back();
    } else {
      paragraphs.back().push_back(lines[i]);
    }
  }
  if (paragraphs.back().empty()) paragraphs.pop_back();

  SpecRule r{rule, heading, anchor_of(heading), file, ""};
  std::vector<std::string> picked;
  for (const std::vector<std::string>& p : paragraphs) {
    bool table = !p.empty() && p[0].rfind("|", 0) == 0;
    if (table) {  // the rows of the rule's operators, under the table's head
      std::vector<std::string> rows;
      for (size_t k = 2; k < p.size(); k++)
        for (const OpText& op : kOps)
          for (const std::string& w : words)
            if (w == op.json && row_of_operator(p[k], op) && (rows.empty() || rows.back() != p[k]))
              rows.push_back(p[k]);
      if (rows.empty() || p.size() < 2) continue;
      std::string t = p[0] + "\n" + p[1] + "\n";
      for (const std::string& row : rows) t += row + "\n";
      picked.push_back(t);
      continue;
    }
    std::string text;
    for (const std::string& l : p) text += l + "\n";
    std::string low = lower(text);
    for (const std::string& w : words)
      if (!is_stop_word(w) && low.find(lower(w)) != std::string::npos) {
        picked.push_back(text);
        break;
      }
  }
  if (picked.empty())
    for (const std::vector<std::string>& p : paragraphs) {
      std::string text;
      for (const std::string& l : p) text += l + "\n";
      picked.push_back(text);
    }
  for (size_t i = 0; i < picked.size(); i++) r.quote += (i ? "\n" : "") + picked[i];
  return r;
}

std::optional<SpecRule> spec_rule(const std::string& rule) {
  static const std::string path = spec_md_path();
  static const std::string text = [] {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  if (text.empty()) return std::nullopt;
  return spec_rule(rule, text, path);
}

}  // namespace concord
