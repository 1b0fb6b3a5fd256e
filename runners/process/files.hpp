// runners/process/files.hpp: files and folders concord writes, so that a reader never finds
// a half-written one: a file is written under a temporary name in its folder and
// renamed over its name; a folder of files (a report) is written aside, inside it,
// and moved in place file by file once all of it is written. When the disk is full
// or a write fails otherwise, WriteError says so in the system's words with the
// path, and nothing half-written stays. Temporary names carry the host and pid
// (cleanup.hpp), are removed at a fatal signal, and swept by a later concord when
// the process died without a chance to.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace concord {

// "cannot write PATH: No space left on device".
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` atomically; creates the folder. Throws WriteError.
void write_file_atomic(const std::string& path, const std::string& text);

// Writes `files` (paths relative to `dir`) into `dir`: all of them into a staging
// folder inside `dir` first (a full disk stops it there, and `dir` is as it was;
// a folder this call created goes again). Then `marker`, the file whose presence
// says the folder is complete, is removed from `dir`, every other file renamed
// into place, and the new `marker` last. Throws WriteError.
void write_folder(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files,
                  const std::string& marker);

}  // namespace concord
