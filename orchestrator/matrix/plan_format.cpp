#include "matrix/plan_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "util/error.h"
#include "util/escape.h"
#include "util/strings.h"

namespace sweep::matrix {
namespace {

/// Output buffer that flushes to a FILE* in large chunks.
class Sink {
 public:
  explicit Sink(std::FILE* out) : out_(out) {}
  ~Sink() { flush(); }
  fmt::memory_buffer& buf() { return buf_; }
  void maybe_flush() {
    if (buf_.size() > (1 << 16)) flush();
  }
  void flush() {
    std::fwrite(buf_.data(), 1, buf_.size(), out_);
    buf_.clear();
  }

 private:
  std::FILE* out_;
  fmt::memory_buffer buf_;
};

void write_json(std::FILE* out, const std::string& experiment, const Expansion& e, int repetitions,
                std::string_view estimate) {
  Sink sink(out);
  auto& b = sink.buf();
  const auto& names = e.schema().names;
  std::string scratch;
  fmt::format_to(std::back_inserter(b), "{{\"format\":\"sweep-plan\",\"version\":{},\"experiment\":{},\"parameters\":[",
                 kPlanJsonVersion, json_string(experiment));
  for (std::size_t i = 0; i < names.size(); ++i)
    fmt::format_to(std::back_inserter(b), "{}{}", i ? "," : "", json_string(names[i]));
  fmt::format_to(std::back_inserter(b), "],\"derived_from\":{},\"points\":[\n", e.schema().parameter_count);
  std::uint64_t count = 0;
  e.for_each([&](const PointView& p) {
    scratch.clear();
    scratch += count ? ",\n{\"id\":\"" : "{\"id\":\"";
    scratch += point_id(e.schema(), p.values);
    scratch += "\",\"values\":{";
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i) scratch += ',';
      append_json_string(scratch, names[i]);
      scratch += ':';
      const Value& v = p.values[i];
      if (v.is_string()) append_json_string(scratch, v.as_string());
      else if (v.is_real() && !std::isfinite(v.as_real())) append_json_string(scratch, v.text());
      else scratch += v.text();
    }
    scratch += "}}";
    b.append(scratch.data(), scratch.data() + scratch.size());
    sink.maybe_flush();
    ++count;
    return true;
  });
  fmt::format_to(std::back_inserter(b), "\n],\"point_count\":{},\"repetitions\":{},\"run_count\":{}", count,
                 repetitions, count * static_cast<std::uint64_t>(repetitions));
  if (!estimate.empty()) fmt::format_to(std::back_inserter(b), ",\"estimate\":{}", estimate);
  b.append(std::string_view("}\n"));
}

void write_csv(std::FILE* out, const Expansion& e) {
  Sink sink(out);
  auto& b = sink.buf();
  b.append(std::string_view("point_id"));
  for (const auto& n : e.schema().names) fmt::format_to(std::back_inserter(b), ",{}", csv_field(n));
  b.push_back('\n');
  e.for_each([&](const PointView& p) {
    b.append(point_id(e.schema(), p.values));
    for (const auto& v : p.values) fmt::format_to(std::back_inserter(b), ",{}", csv_field(v.text()));
    b.push_back('\n');
    sink.maybe_flush();
    return true;
  });
}

void write_table(std::FILE* out, const Expansion& e, int repetitions) {
  // Two passes: the first finds column widths, the second prints; neither keeps the points.
  const auto& names = e.schema().names;
  std::vector<std::size_t> width(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) width[i] = names[i].size();
  std::uint64_t count = 0;
  e.for_each([&](const PointView& p) {
    for (std::size_t i = 0; i < names.size(); ++i) width[i] = std::max(width[i], p.values[i].text().size());
    ++count;
    return true;
  });
  Sink sink(out);
  auto& b = sink.buf();
  fmt::format_to(std::back_inserter(b), "{:<16}", "point");
  for (std::size_t i = 0; i < names.size(); ++i) fmt::format_to(std::back_inserter(b), "  {:<{}}", names[i], width[i]);
  b.push_back('\n');
  e.for_each([&](const PointView& p) {
    b.append(point_id(e.schema(), p.values));
    for (std::size_t i = 0; i < names.size(); ++i)
      fmt::format_to(std::back_inserter(b), "  {:<{}}", p.values[i].text(), width[i]);
    b.push_back('\n');
    sink.maybe_flush();
    return true;
  });
  fmt::format_to(std::back_inserter(b), "{} points x {} repetitions = {} runs\n", count, repetitions,
                 count * static_cast<std::uint64_t>(repetitions));
}

struct FormatRow {
  std::string_view name;
  PlanFormat format;
};
constexpr std::array<FormatRow, 3> kFormats{{{"table", PlanFormat::table}, {"json", PlanFormat::json}, {"csv", PlanFormat::csv}}};

}  // namespace

std::vector<std::string> plan_format_names() {
  std::vector<std::string> out;
  for (const auto& row : kFormats) out.emplace_back(row.name);
  return out;
}

PlanFormat plan_format_from_name(std::string_view name) {
  for (const auto& row : kFormats)
    if (row.name == name) return row.format;
  throw Error(ErrorKind::usage, fmt::format("unknown format \"{}\" (expected one of: {}){}", name,
                                            join(plan_format_names(), ", "), did_you_mean(name, plan_format_names())));
}

void write_plan(std::FILE* out, const std::string& experiment_name, const Expansion& expansion, int repetitions,
                PlanFormat format,
                std::string_view estimate) {
  switch (format) {
    case PlanFormat::json: return write_json(out, experiment_name, expansion, repetitions, estimate);
    case PlanFormat::csv: return write_csv(out, expansion);
    case PlanFormat::table: return write_table(out, expansion, repetitions);
  }
}

}  // namespace sweep::matrix
