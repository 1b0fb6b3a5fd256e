// targets/common/code_writer.hpp: the output primitives every emitter writes
// through (as clox's compiler does): a line at the current indentation, and
// indentation that opens and closes with blocks. Emitters differ in what they
// print, never in how it is laid out.
#pragma once

#include <sstream>
#include <string>

namespace concord {

class CodeWriter {
 public:
  explicit CodeWriter(int indent_width = 4) : width_(indent_width) {}

  void line(const std::string& s = "") {
    if (!s.empty()) out_ << std::string(static_cast<size_t>(depth_ * width_), ' ') << s;
    out_ << '\n';
  }
  void open(const std::string& s) {  // a line that opens a block
    line(s);
    depth_++;
  }
  void close(const std::string& s) {  // a line that closes one
    depth_--;
    line(s);
  }
  void middle(const std::string& s) {  // a line that closes a block and opens the next ("} else {")
    depth_--;
    line(s);
    depth_++;
  }
  void last(const std::string& s) {  // the last line of a block, inside it, that ends the block (Erlang's "S3.")
    line(s);
    depth_--;
  }
  int depth() const { return depth_; }
  std::string str() const { return out_.str(); }

 private:
  std::ostringstream out_;
  int depth_ = 0;
  int width_;
};

}  // namespace concord
