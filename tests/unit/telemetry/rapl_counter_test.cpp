#include "telemetry/rapl_counter.h"

#include <catch2/catch.hpp>

using sweep::telemetry::EnergyCounter;

TEST_CASE("telemetry rapl_counter: joules since the first reading") {
  EnergyCounter c(262143328850);
  CHECK(c.add(1'000'000) == 0.0);
  CHECK(c.add(3'500'000) == Approx(2.5));
  CHECK(c.add(3'500'000) == Approx(2.5));
}

TEST_CASE("telemetry rapl_counter: a wrap between readings is undone with max_energy_range_uj") {
  EnergyCounter c(1'000'000'000);        // the counter runs 0 .. 1000 J
  c.add(999'000'000);                    // 999 J
  CHECK(c.add(2'000'000) == Approx(3.0));  // to 1000 J (1 J), then from 0 to 2 J
  CHECK(c.add(500'000'000) == Approx(501.0));
  CHECK(c.add(100'000'000) == Approx(1101.0));  // a second wrap
}
