// reports/svg_chart.cpp: line and bar charts as SVG text.
#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "reports/html.hpp"

namespace concord {
namespace {

const char* const kColours[] = {"#0969da", "#1a7f37", "#bf8700", "#8250df", "#cf222e", "#1b7c83", "#953800"};

std::string num(double v) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << v;
  return o.str();
}

// A round step for about `ticks` ticks up to `top`.
double nice_step(double top, int ticks) {
  double raw = top / ticks;
  double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

std::string tick_words(double v) {
  std::ostringstream o;
  if (v >= 1000000)
    o << v / 1000000 << "M";
  else if (v >= 10000)
    o << v / 1000 << "k";
  else if (v == std::floor(v))
    o << static_cast<long long>(v);
  else
    o << std::fixed << std::setprecision(v < 10 ? 2 : 1) << v;
  return o.str();
}

}  // namespace

std::string svg_line_chart(const std::vector<Series>& series, const std::string& x_label, const std::string& y_label,
                           int width, int height) {
  const double left = 56, right = 16, top = 14, bottom = 40;
  double xmax = 0, ymax = 0;
  for (const Series& s : series)
    for (const auto& [x, y] : s.points) {
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  if (xmax <= 0) xmax = 1;
  if (ymax <= 0) ymax = 1;
  double ystep = nice_step(ymax, 5), xstep = nice_step(xmax, 8);
  ymax = std::ceil(ymax / ystep) * ystep;
  double pw = width - left - right, ph = height - top - bottom;
  auto X = [&](double x) { return left + x / xmax * pw; };
  auto Y = [&](double y) { return top + ph - y / ymax * ph; };
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" role=\"img\" aria-label=\"" << html_escape(y_label + " over " + x_label) << "\">\n";
  for (double y = 0; y <= ymax + 1e-9; y += ystep)
    out << "<line x1=\"" << left << "\" x2=\"" << width - right << "\" y1=\"" << num(Y(y)) << "\" y2=\"" << num(Y(y))
        << "\" stroke=\"#eaeef2\"/><text x=\"" << left - 6 << "\" y=\"" << num(Y(y) + 4) << "\" text-anchor=\"end\">"
        << tick_words(y) << "</text>\n";
  for (double x = 0; x <= xmax + 1e-9; x += xstep)
    out << "<text x=\"" << num(X(x)) << "\" y=\"" << height - bottom + 16 << "\" text-anchor=\"middle\">"
        << tick_words(x) << "</text>\n";
  out << "<line x1=\"" << left << "\" x2=\"" << left << "\" y1=\"" << top << "\" y2=\"" << top + ph
      << "\" stroke=\"#8c959f\"/><line x1=\"" << left << "\" x2=\"" << width - right << "\" y1=\"" << top + ph
      << "\" y2=\"" << top + ph << "\" stroke=\"#8c959f\"/>\n";
  out << "<text x=\"" << left + pw / 2 << "\" y=\"" << height - 6 << "\" text-anchor=\"middle\">"
      << html_escape(x_label) << "</text>\n";
  out << "<text x=\"12\" y=\"" << top + ph / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 12 " << top + ph / 2
      << ")\">" << html_escape(y_label) << "</text>\n";
  for (size_t i = 0; i < series.size(); i++) {
    const char* colour = kColours[i % (sizeof kColours / sizeof *kColours)];
    out << "<polyline class=\"series\" data-series=\"" << html_escape(series[i].name)
        << "\" fill=\"none\" stroke-width=\"1.6\" stroke=\"" << colour << "\" points=\"";
    for (const auto& [x, y] : series[i].points) out << num(X(x)) << "," << num(Y(y)) << " ";
    out << "\"/>\n";
    if (series.size() > 1)
      out << "<text x=\"" << width - right - 4 << "\" y=\"" << top + 12 + 13 * i
          << "\" text-anchor=\"end\" style=\"fill:" << colour << "\">" << html_escape(series[i].name) << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

std::string svg_bar_chart(const std::vector<Bar>& bars, const std::string& value_label, bool log_scale, int width) {
  const double label_w = 190, value_w = 70, row = 15, top = 6;
  auto scale = [&](double v) { return log_scale ? std::log10(1 + v) : v; };
  double vmax = 0;
  for (const Bar& b : bars) vmax = std::max(vmax, scale(b.value));
  if (vmax <= 0) vmax = 1;
  double bw = width - label_w - value_w;
  int height = static_cast<int>(top * 2 + row * bars.size() + 18);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" role=\"img\" aria-label=\"" << html_escape(value_label) << "\">\n";
  for (size_t i = 0; i < bars.size(); i++) {
    const Bar& b = bars[i];
    double y = top + row * i;
    double len = b.value > 0 ? std::max(1.0, scale(b.value) / vmax * bw) : 0;
    out << "<g class=\"bar" << (b.warn ? " warn" : "") << "\"><text x=\"" << label_w - 6 << "\" y=\"" << num(y + 11)
        << "\" text-anchor=\"end\">" << html_escape(b.label) << "</text><rect x=\"" << label_w << "\" y=\""
        << num(y + 2) << "\" width=\"" << num(len) << "\" height=\"" << row - 4 << "\" fill=\""
        << (b.warn ? "#cf222e" : "#0969da") << "\"/><text x=\"" << num(label_w + len + 4) << "\" y=\"" << num(y + 11)
        << "\"" << (b.warn ? " style=\"fill:#cf222e\"" : "") << ">" << tick_words(b.value) << "</text></g>\n";
  }
  out << "<text x=\"" << label_w << "\" y=\"" << height - 4 << "\">" << html_escape(value_label)
      << (log_scale ? " (log scale)" : "") << "</text>\n</svg>\n";
  return out.str();
}

}  // namespace concord
