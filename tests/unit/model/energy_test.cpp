#include "model/energy.h"

#include <catch2/catch.hpp>

using namespace sweep::model;

TEST_CASE("energy per step: the run's joules over its steps, communication attributed by the predicted time share") {
  const auto split = split_energy(41230.0, 100, 12.5, 50.0);
  REQUIRE(split);
  CHECK(split->per_step_j == Approx(412.3));
  CHECK(*split->comm_share == Approx(0.25));
  CHECK(*split->comm_per_step_j == Approx(103.075));
  CHECK(energy_line(split, "energy_j over 100 steps") ==
        "energy: 412.3 J per step measured (energy_j over 100 steps); communication costs 103.1 J per step (25.0% of it, "
        "attributed by the predicted time share: the counters cannot split joules by activity)");
}

TEST_CASE("energy per step without a prediction has no communication line") {
  const auto split = split_energy(900.0, 3);
  REQUIRE(split);
  CHECK_FALSE(split->comm_per_step_j);
  CHECK(energy_line(split) == "energy: 300 J per step measured");
  CHECK_FALSE(split_energy(900.0, 3, 1.0, 0.0)->comm_share);  // no predicted time: nothing to attribute by
}

TEST_CASE("energy per step is not measured without joules or steps") {
  CHECK_FALSE(split_energy(std::nullopt, 100));
  CHECK_FALSE(split_energy(100.0, 0));
  CHECK_FALSE(split_energy(-1.0, 10));
  CHECK(energy_line(std::nullopt) == "energy: not measured");
}
