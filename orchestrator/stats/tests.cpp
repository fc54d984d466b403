#include "stats/tests.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <vector>

#include "stats/distributions.h"

namespace sweep::stats {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Ranks of the pooled sample (1-based, ties averaged); returns the candidate's rank sum and adds
// sum(t^3 - t) over tie groups to `ties`.
double candidate_rank_sum(std::span<const double> baseline, std::span<const double> candidate, double& ties) {
  struct Item {
    double value;
    bool from_candidate;
  };
  std::vector<Item> all;
  for (double x : baseline) all.push_back({x, false});
  for (double x : candidate) all.push_back({x, true});
  std::sort(all.begin(), all.end(), [](const Item& a, const Item& b) { return a.value < b.value; });
  double sum = 0;
  ties = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].value == all[i].value) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;  // average of i+1 .. j
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].from_candidate) sum += rank;
    i = j;
  }
  return sum;
}

// P(U >= u) under the null for samples of m and n distinct values: the number of arrangements with
// U = v follows f(m, n, v) = f(m - 1, n, v - n) + f(m, n - 1, v), over C(m + n, m) arrangements.
// Written here because no Debian library has it: Boost.Math (which gives the t and normal
// distributions, stats/distributions.h) has no Mann-Whitney distribution, and GSL has none either.
const std::vector<double>& exact_counts(int m, int n) {
  // The distribution depends on the sample sizes only: computed once per (m, n) and thread.
  thread_local std::map<std::pair<int, int>, std::vector<double>> cache;
  auto& counts = cache[{m, n}];
  if (!counts.empty()) return counts;
  const int top = m * n;
  // counts[j][v]: arrangements of i values of the first sample and j of the second with U = v.
  std::vector<std::vector<double>> previous(static_cast<std::size_t>(n + 1), std::vector<double>(top + 1, 0.0));
  for (auto& row : previous) row[0] = 1;  // i = 0: U is 0
  for (int i = 1; i <= m; ++i) {
    std::vector<std::vector<double>> current(static_cast<std::size_t>(n + 1), std::vector<double>(top + 1, 0.0));
    current[0][0] = 1;
    for (int j = 1; j <= n; ++j)
      for (int v = 0; v <= i * j; ++v)
        current[j][v] = (v >= j ? previous[j][v - j] : 0.0) + current[j - 1][v];
    previous = std::move(current);
  }
  counts = std::move(previous[static_cast<std::size_t>(n)]);
  return counts;
}

double exact_sf(int m, int n, double u) {
  const std::vector<double>& counts = exact_counts(m, n);
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  double tail = 0;
  for (int v = static_cast<int>(std::ceil(u)); v <= m * n; ++v) tail += counts[v];
  return tail / total;
}

}  // namespace

Welch welch(std::span<const double> baseline, std::span<const double> candidate, double confidence) {
  return welch(summarize(baseline), summarize(candidate), confidence);
}

Welch welch(const Summary& b, const Summary& c, double confidence) {
  Welch w;
  w.difference = c.mean - b.mean;
  if (b.n < 2 || c.n < 2) {
    w.diff_low = -kInf;
    w.diff_high = kInf;
    return w;
  }
  const double vb = b.sd * b.sd / static_cast<double>(b.n), vc = c.sd * c.sd / static_cast<double>(c.n);
  const double se = std::sqrt(vb + vc);
  if (se == 0) {  // two constant samples: equal, or certainly different
    w.t = w.difference == 0 ? 0 : std::copysign(kInf, w.difference);
    w.df = static_cast<double>(b.n + c.n - 2);
    w.p = w.difference == 0 ? 1 : 0;
    w.diff_low = w.diff_high = w.difference;
    return w;
  }
  w.t = w.difference / se;
  w.df = (vb + vc) * (vb + vc) / (vb * vb / static_cast<double>(b.n - 1) + vc * vc / static_cast<double>(c.n - 1));
  w.p = t_two_sided_p(w.t, w.df);
  const double half = t_quantile(0.5 + confidence / 2, w.df) * se;
  w.diff_low = w.difference - half;
  w.diff_high = w.difference + half;
  return w;
}

MannWhitney mann_whitney(std::span<const double> baseline, std::span<const double> candidate) {
  MannWhitney r;
  const auto nb = static_cast<double>(baseline.size()), nc = static_cast<double>(candidate.size());
  if (baseline.empty() || candidate.empty()) return r;
  double ties = 0;
  r.u = candidate_rank_sum(baseline, candidate, ties) - nc * (nc + 1) / 2;
  const double big = std::max(r.u, nb * nc - r.u);  // two-sided: the larger of the two U's
  r.exact = ties == 0 && std::min(nb, nc) <= 8;
  if (r.exact) {
    r.p = std::min(1.0, 2 * exact_sf(static_cast<int>(nc), static_cast<int>(nb), big));
    return r;
  }
  const double n = nb + nc, mean = nb * nc / 2;
  const double sd = std::sqrt(nb * nc / 12 * ((n + 1) - ties / (n * (n - 1))));
  if (sd == 0) return r;  // every value tied: no evidence either way
  r.p = std::min(1.0, 2 * normal_sf((big - mean - 0.5) / sd));
  return r;
}

double hedges_g(std::span<const double> baseline, std::span<const double> candidate) {
  return hedges_g(summarize(baseline), summarize(candidate));
}

double hedges_g(const Summary& b, const Summary& c) {
  if (b.n + c.n < 3) return 0;
  const double pooled = std::sqrt((static_cast<double>(b.n - 1) * b.sd * b.sd + static_cast<double>(c.n - 1) * c.sd * c.sd) /
                                  static_cast<double>(b.n + c.n - 2));
  const double difference = c.mean - b.mean;
  if (pooled == 0) return difference == 0 ? 0 : std::copysign(kInf, difference);
  const double correction = 1 - 3 / (4 * static_cast<double>(b.n + c.n) - 9);
  return correction * difference / pooled;
}

}  // namespace sweep::stats
