// reports/spec_rule.hpp: a SPEC rule as a triage page shows it (issue 17): the
// section of spec/SPEC.md a rule signature names ("§6.5 fifo" -> "6.5 Send and
// delivery"), the anchor of that heading in the Markdown (GitHub's: "65-send-and-delivery"),
// and the rule's own text quoted from the section: its paragraphs that hold one of the
// rule's words ("fifo" -> the paragraph saying mailboxes are FIFO), for an operator
// rule of §5 the table rows of its operators, else the whole section. SPEC.md is read
// when a page is made, from the install (<prefix>/share/concord/spec/SPEC.md, found
// beside the executable as every installed runtime is) or else from the source tree.
#pragma once

#include <optional>
#include <string>

namespace concord {

struct SpecRule {
  std::string rule;     // as given: "§6.5 fifo"
  std::string heading;  // "6.5 Send and delivery"
  std::string anchor;   // "65-send-and-delivery"
  std::string file;     // the SPEC.md it was read from
  std::string quote;    // Markdown lines of the section, as in SPEC.md
};

// The SPEC.md this concord reads: the install's, else the source tree's.
std::string spec_md_path();

// The rule in `spec_text` (SPEC.md's content, read from `file`), or nothing when
// the rule names no section of it.
std::optional<SpecRule> spec_rule(const std::string& rule, const std::string& spec_text, const std::string& file);
// The same, from spec_md_path() (read once); nothing when it cannot be read.
std::optional<SpecRule> spec_rule(const std::string& rule);

}  // namespace concord
