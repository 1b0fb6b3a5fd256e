// oracle/printable.hpp: the one escaping of text that a message quotes from input
// (names, keys, file names, a backend's output): control characters, invalid UTF-8
// and the invisible or reordering characters of Unicode (bidi overrides such as
// U+202E, zero-width characters, line separators) are written as escapes, so a
// message stays on one line and reads as it is stored. Backslashes are left alone,
// so escaping twice changes nothing.
#pragma once

#include <string>
#include <string_view>

namespace concord {

// \n \r \t for those; \xHH for other ASCII controls, DEL and bytes that are not
// UTF-8; \u{HHHH} for C1 controls and the Unicode format characters listed in
// printable.cpp. Everything else is kept as it is.
std::string printable(std::string_view text);

}  // namespace concord
