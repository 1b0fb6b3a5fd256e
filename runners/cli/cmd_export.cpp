// runners/cli/cmd_export.cpp: `concord export CASE --as FORMAT [--out DIR]`: a
// corpus case as a test in another framework, one that runs without concord
// (export/export.hpp).
#include <filesystem>
#include <iostream>

#include "export/export.hpp"
#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

int cmd_export(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--as", "--out"}, {});
  std::string file = one_file(a, "export");
  const std::string* as = a.option("--as");
  if (!as)
    throw InputError("", std::string("usage: concord export CASE --as ") + export_format_names() + " [--out DIR]");
  std::optional<ExportFormat> format = parse_export_format(*as);
  if (!format) throw InputError("--as", "unknown export format '" + *as + "' (one of: " + export_format_names() + ")");
  if (!is_case_file(file)) throw InputError(file, "not a case file (*.case.json): export needs a case's runs");
  Case c = load_case(file);
  std::string dir = a.option("--out") ? *a.option("--out") : c.name + "-" + *as;
  Exported e = export_case(c, *format);
  write_exported(dir, e);
  std::cout << "exported " << c.name << " (" << c.runs.size() << " run" << (c.runs.size() == 1 ? "" : "s") << ") as "
            << *as << " into " << dir << "/ (" << e.files.size() << " files)\n"
            << "run it there: " << e.run << "\n";
  return kOk;
}

}  // namespace concord
