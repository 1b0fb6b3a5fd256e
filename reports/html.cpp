// reports/html.cpp: the page frame of the triage and report pages.
#include "html.hpp"

namespace concord {

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

const char* const kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
pre { background: #f6f8fa; padding: .7em 1em; overflow-x: auto; border-radius: 4px; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d0d7de; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.side td { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12.5px; white-space: pre-wrap; }
tr.differs td { background: #fff8e1; } tr.first td { background: #ffe4e1; font-weight: 600; }
td.absent { color: #8c959f; font-style: italic; }
mark.field { background: #ff8c82; padding: 0 2px; border-radius: 2px; }
.agree { color: #1a7f37; font-weight: 600; } .differ { color: #cf222e; font-weight: 600; } .noverdict { color: #9a6700; font-weight: 600; }
.meta td:first-child { color: #57606a; white-space: nowrap; }
.cmd { display: flex; gap: .5em; align-items: center; margin: .25em 0; }
.cmd code { background: #f6f8fa; padding: .3em .6em; border-radius: 4px; flex: 1; overflow-x: auto; white-space: nowrap; }
.cmd button { font-size: 12px; }
details { margin: .4em 0; } summary { cursor: pointer; font-weight: 600; }
svg text { font: 11px system-ui, sans-serif; fill: #57606a; }
.note { background: #fff8c5; border: 1px solid #d4a72c; padding: .4em .8em; border-radius: 4px; }
)";

// Adds a copy button to every command block; the page reads fine without it.
const char* const kScript = R"(
document.querySelectorAll('.cmd').forEach(function (block) {
  var code = block.querySelector('code');
  var b = document.createElement('button');
  b.type = 'button';
  b.className = 'copy';
  b.textContent = 'copy';
  b.addEventListener('click', function () {
    if (navigator.clipboard) navigator.clipboard.writeText(code.textContent);
    b.textContent = 'copied';
  });
  block.appendChild(b);
});
document.body.setAttribute('data-ready', 'yes');
)";

}  // namespace

std::string html_page_start(const std::string& title) {
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + html_escape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string html_page_end() { return std::string("<script>") + kScript + "</script>\n</body>\n</html>\n"; }

std::string html_command(const std::string& command) {
  return "<div class=\"cmd\"><code>" + html_escape(command) + "</code></div>\n";
}

}  // namespace concord
