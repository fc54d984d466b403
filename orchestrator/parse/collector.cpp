#include "parse/collector.h"

#include <algorithm>
#include <fmt/core.h>

namespace sweep::parse {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\')
      out += fmt::format("\\x{:02x}", byte);
    else
      out += c;
  }
  return out;
}

std::size_t LineCursor::line_of(std::size_t offset) {
  offset = std::min(offset, text_.size());
  if (offset < offset_) return line_;  // contract violation: answer the last known line
  line_ += static_cast<std::size_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(offset_),
                                               text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
  offset_ = offset;
  return line_;
}

void Collector::add(const std::string& name, std::optional<std::size_t> index, double value, std::string unit,
                    std::string better, std::size_t rule) {
  if (out_.observations.size() >= kMaxObservations) {
    ++over_observations_;
    return;
  }
  auto it = counts_.find(name);
  if (it == counts_.end()) {
    if (counts_.size() >= kMaxMetricNames) {
      ++over_names_;
      return;
    }
    it = counts_.emplace(name, 0).first;
  }
  const std::size_t running = it->second++;
  out_.observations.push_back(Observation{name, index.value_or(running), value, std::move(unit), std::move(better)});
  producer_.push_back(rule);
}

void Collector::fold(const std::vector<Rule>& rules, const std::vector<std::optional<Reduce>>& how) {
  out_.matches = fold_matches(rules, how, out_.observations, producer_);
  producer_.assign(out_.observations.size(), kNoRule);
}

void Collector::warn(std::string_view source, std::size_t line, std::string_view message) {
  if (!wants_warnings()) {
    ++dropped_warnings_;
    return;
  }
  out_.warnings.push_back(line ? fmt::format("{}:{}: {}", source, line, message)
                               : fmt::format("{}: {}", source, message));
}

bool Collector::number(std::string_view text, std::string_view source, std::size_t line, const std::string& name,
                       double& value) {
  const NumberStatus status = parse_number(text, value);
  if (status == NumberStatus::ok) return true;
  bad_number(text, status, source, line, name);
  return false;
}

void Collector::bad_number(std::string_view text, NumberStatus status, std::string_view source, std::size_t line,
                           const std::string& name) {
  if (!wants_warnings()) {
    ++dropped_warnings_;
    return;
  }
  constexpr std::size_t kMaxQuoted = 40;  // keep warnings about huge captures readable
  warn(source, line,
       fmt::format("metric \"{}\": value \"{}{}\" {}", name, printable(text.substr(0, kMaxQuoted)),
                   text.size() > kMaxQuoted ? "..." : "", describe(status)));
}

Extraction Collector::finish() {
  if (over_names_)
    out_.warnings.push_back(fmt::format("{} values of metrics beyond the first {} distinct metric names were skipped "
                                        "(the limit per run, docs/metrics-format.md#limits)", over_names_, kMaxMetricNames));
  if (over_observations_)
    out_.warnings.push_back(fmt::format("{} values beyond the first {} were skipped (the limit per run, "
                                        "docs/metrics-format.md#limits)", over_observations_, kMaxObservations));
  if (dropped_warnings_) out_.warnings.push_back(fmt::format("... {} more warnings", dropped_warnings_));
  dropped_warnings_ = 0;
  return std::move(out_);
}

}  // namespace sweep::parse
