// The statistics against scipy (Debian's python3-scipy, run at test time by scipy_reference.py):
// distributions, confidence intervals, Welch's t-test and Mann–Whitney U on samples with and
// without ties, small and large.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/distributions.h"
#include "stats/summary.h"
#include "stats/tests.h"

using namespace sweep::stats;
using nlohmann::json;

namespace {

struct Pair {
  std::vector<double> baseline, candidate;
};

// Fixed samples shaped like benchmark repetitions: small n, a regression, noise, ties, unequal sizes.
const std::vector<Pair> kPairs{
    {{10.1, 10.3, 9.8, 10.0, 10.2}, {10.9, 11.2, 10.8, 11.0, 11.1}},
    {{5.0, 5.1, 4.9}, {5.05, 5.2, 4.8, 5.1}},
    {{1, 2, 2, 3, 3, 3, 4}, {2, 3, 3, 4, 4, 5, 5, 6}},
    {{100, 102, 98, 101, 99, 103, 97, 100, 101, 99, 102}, {95, 97, 96, 99, 94, 98, 96, 97, 95, 96}},
    {{0.51, 0.49, 0.55, 0.47, 0.52, 0.50, 0.48, 0.53, 0.46, 0.54},
     {0.61, 0.38, 0.70, 0.44, 0.59, 0.33, 0.66, 0.41, 0.57, 0.52}},
    {{3.3, 3.1}, {2.9, 3.0, 3.2}},
};

json reference(const json& cases) {
  const std::string in =
      (std::filesystem::temp_directory_path() / ("sweep-stats-cases-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(in) << cases.dump();
  const std::string command = "/usr/bin/python3 " + SWEEP_SOURCE_DIR + "/tests/unit/stats/scipy_reference.py < " + in;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  std::filesystem::remove(in);
  INFO("scipy_reference.py needs python3-scipy (scripts/install-deps installs it); it printed: " << out);
  REQUIRE(status == 0);
  return json::parse(out);
}

}  // namespace

TEST_CASE("distributions, intervals, Welch and Mann-Whitney agree with scipy") {
  json cases = {{"pairs", json::array()}, {"samples", json::array()}, {"t", json::array()},
                {"t_cdf", json::array()}, {"normal", json::array()}};
  std::vector<MannWhitney> ours;
  for (const Pair& p : kPairs) {
    ours.push_back(mann_whitney(p.baseline, p.candidate));
    cases["pairs"].push_back({{"baseline", p.baseline}, {"candidate", p.candidate}, {"exact", ours.back().exact}});
    cases["samples"].push_back(p.candidate);
  }
  const std::vector<std::pair<double, double>> quantiles{{0.975, 1}, {0.975, 2}, {0.975, 4}, {0.95, 9.5},
                                                         {0.995, 30}, {0.025, 7.3}, {0.9, 200}};
  const std::vector<std::pair<double, double>> cdfs{{2.1, 3}, {-0.4, 12.5}, {7.0, 2}, {0.0, 5}, {-3.2, 40}};
  const std::vector<double> normals{0.975, 0.8, 0.5, 0.001};
  for (const auto& [p, df] : quantiles) cases["t"].push_back({p, df});
  for (const auto& [t, df] : cdfs) cases["t_cdf"].push_back({t, df});
  cases["normal"] = normals;
  const json ref = reference(cases);

  for (std::size_t i = 0; i < quantiles.size(); ++i)
    CHECK(t_quantile(quantiles[i].first, quantiles[i].second) == Approx(ref["t"][i].get<double>()).epsilon(1e-9));
  for (std::size_t i = 0; i < cdfs.size(); ++i)
    CHECK(t_cdf(cdfs[i].first, cdfs[i].second) == Approx(ref["t_cdf"][i].get<double>()).epsilon(1e-9));
  for (std::size_t i = 0; i < normals.size(); ++i)
    CHECK(normal_quantile(normals[i]) == Approx(ref["normal"][i].get<double>()).epsilon(1e-9));

  for (std::size_t i = 0; i < kPairs.size(); ++i) {
    INFO("pair " << i << ", Mann-Whitney " << (ours[i].exact ? "exact" : "asymptotic"));
    const Welch w = welch(kPairs[i].baseline, kPairs[i].candidate);
    const json& rw = ref["welch"][i];
    CHECK(w.t == Approx(rw["t"].get<double>()).epsilon(1e-9));
    CHECK(w.df == Approx(rw["df"].get<double>()).epsilon(1e-9));
    CHECK(w.p == Approx(rw["p"].get<double>()).epsilon(1e-8));
    CHECK(w.diff_low == Approx(rw["low"].get<double>()).epsilon(1e-8));
    CHECK(w.diff_high == Approx(rw["high"].get<double>()).epsilon(1e-8));
    CHECK(ours[i].u == Approx(ref["mann_whitney"][i]["u"].get<double>()));
    CHECK(ours[i].p == Approx(ref["mann_whitney"][i]["p"].get<double>()).epsilon(1e-9));
    const Summary s = summarize(kPairs[i].candidate);
    CHECK(s.ci_low == Approx(ref["ci"][i][0].get<double>()).epsilon(1e-9));
    CHECK(s.ci_high == Approx(ref["ci"][i][1].get<double>()).epsilon(1e-9));
  }
  // Both methods of Mann-Whitney were exercised.
  CHECK(std::any_of(ours.begin(), ours.end(), [](const MannWhitney& m) { return m.exact; }));
  CHECK(std::any_of(ours.begin(), ours.end(), [](const MannWhitney& m) { return !m.exact; }));
}
