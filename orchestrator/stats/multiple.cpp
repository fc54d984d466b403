#include "stats/multiple.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <utility>

namespace sweep::stats {
namespace {

constexpr std::array<std::pair<Correction, std::string_view>, 3> kCorrections{
    {{Correction::holm, "holm"}, {Correction::bh, "bh"}, {Correction::none, "none"}}};

}  // namespace

std::string_view name_of(Correction c) {
  for (const auto& [k, name] : kCorrections)
    if (k == c) return name;
  return "?";
}

std::optional<Correction> parse_correction(std::string_view text) {
  for (const auto& [k, name] : kCorrections)
    if (name == text) return k;
  return std::nullopt;
}

std::vector<double> adjust(std::span<const double> p, Correction c) {
  const std::size_t m = p.size();
  std::vector<double> value(m), out(m);
  for (std::size_t i = 0; i < m; ++i) value[i] = std::isnan(p[i]) ? 1.0 : std::clamp(p[i], 0.0, 1.0);
  if (c == Correction::none) return value;
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return value[a] < value[b]; });
  const auto count = static_cast<double>(m);
  if (c == Correction::holm) {  // step-down: running maximum of (m - k) p_(k), k from 0
    double running = 0;
    for (std::size_t k = 0; k < m; ++k) {
      running = std::max(running, std::min(1.0, (count - static_cast<double>(k)) * value[order[k]]));
      out[order[k]] = running;
    }
  } else {  // Benjamini–Hochberg step-up: running minimum of m/(k+1) p_(k), k from the largest
    double running = 1;
    for (std::size_t k = m; k-- > 0;) {
      running = std::min(running, std::min(1.0, count / static_cast<double>(k + 1) * value[order[k]]));
      out[order[k]] = running;
    }
  }
  return out;
}

void correct(std::span<Comparison> family, std::span<const Better> better, const CompareOptions& options) {
  std::vector<std::size_t> decided;
  std::vector<double> p;
  for (std::size_t i = 0; i < family.size(); ++i)
    if (family[i].baseline.n >= options.min_repetitions && family[i].candidate.n >= options.min_repetitions) {
      decided.push_back(i);
      p.push_back(family[i].welch.p);
    }
  const std::vector<double> adjusted = adjust(p, options.correction);
  for (std::size_t k = 0; k < decided.size(); ++k) {
    Comparison& x = family[decided[k]];
    x.p_adjusted = adjusted[k];
    CompareOptions own = options;  // each comparison keeps the threshold it was compared with
    own.threshold = x.threshold;
    judge(x, better[decided[k]], own, adjusted[k]);
  }
}

}  // namespace sweep::stats
