#include "forecast/collbench_model.h"

#include <catch2/catch.hpp>

using namespace sweep;
using namespace sweep::forecast;

TEST_CASE("collbench model: warmup plus iters all-reduces per size, by the alpha-beta model") {
  const model::Link link{25e9, 0.6e-6, 1};  // ib-hdr
  // One size, 1 MiB, 2 ranks: 12 all-reduces of 2(n-1)a + 2(n-1)/n S/b = 1.2e-6 + 1048576/25e9 s.
  const spec::BundledValues one{{"min-bytes", "1M"}, {"iters", "10"}, {"warmup", "2"}};
  REQUIRE(collbench_seconds(one, 2, link));
  CHECK(*collbench_seconds(one, 2, link) == Approx(12 * (1.2e-6 + 1048576 / 25e9)));
  // Sizes 1K, 2K, 4K (factor 2), defaults 5 + 20 iterations, in place too: twice.
  const spec::BundledValues range{{"min-bytes", "1K"}, {"max-bytes", "4KiB"}, {"inplace", "true"}};
  const double each = 2 * 25 * 2 * 0.6e-6;
  CHECK(*collbench_seconds(range, 2, link) == Approx(3 * each + 2 * 25 * (1024 + 2048 + 4096) / 25e9));
  // The defaults: 32 MiB once.
  CHECK(*collbench_seconds({}, 4, link) == Approx(25 * (6 * 0.6e-6 + 1.5 * 32 * 1048576 / 25e9)));
}

TEST_CASE("collbench model gives no time where it cannot") {
  const model::Link link{25e9, 0, 1};
  CHECK_FALSE(collbench_seconds({{"op", "alltoall"}}, 2, link));
  CHECK_FALSE(collbench_seconds({{"params", "700M"}}, 2, link));
  CHECK_FALSE(collbench_seconds({{"min-bytes", std::nullopt}}, 2, link));  // known only at run time
  CHECK_FALSE(collbench_seconds({{"min-bytes", "lots"}}, 2, link));
  CHECK_FALSE(collbench_seconds({}, 1, link));  // one rank: nothing to model
  CHECK(collbench_seconds({{"op", "allreduce"}}, 2, link));
}

TEST_CASE("collbench model: a named interconnect's link") {
  const auto table = model::merge_interconnects({});
  const auto link = named_link(table, "ib-hdr");
  REQUIRE(link);
  CHECK(link->bandwidth == 25e9);
  CHECK(link->latency == Approx(0.6e-6));
  CHECK_FALSE(named_link(table, "carrier-pigeon"));
}
