// reports/svg_chart.hpp: the two figures of a report page, as inline SVG (no
// script, no external file): a line chart (one line per series, e.g. throughput
// per shard over time) and a horizontal bar chart (e.g. how often each construct
// was generated, on a log scale, those never reached drawn in red).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace concord {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // x, y
};

std::string svg_line_chart(const std::vector<Series>& series, const std::string& x_label, const std::string& y_label,
                           int width = 760, int height = 260);

struct Bar {
  std::string label;
  double value = 0;
  bool warn = false;  // drawn in red (e.g. never reached)
};

// One row per bar; log_scale: the bar length is log10(1 + value).
std::string svg_bar_chart(const std::vector<Bar>& bars, const std::string& value_label, bool log_scale,
                          int width = 760);

}  // namespace concord
