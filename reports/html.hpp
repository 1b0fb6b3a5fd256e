// reports/html.hpp: what the triage and report pages share: escaping, and one page
// frame with its style sheet and script inline, so that a page is one file that
// opens anywhere, offline (no fonts, scripts or images fetched).
#pragma once

#include <string>

namespace concord {

std::string html_escape(const std::string& s);  // text and attribute values

// <!doctype html> ... <body>, with the shared style and `title`.
std::string html_page_start(const std::string& title);
// The copy buttons' script, then </body></html>.
std::string html_page_end();

// A command as a block a reader copies: <div class="cmd"><code>…</code></div>
// (the page's script adds a copy button to each).
std::string html_command(const std::string& command);

}  // namespace concord
