// spec::load_text: `order`, the order in which a campaign's runs start (a name, or {kind, seed}).
#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load;
using spec_test::load_error;

TEST_CASE("order: interleaved unless the experiment says otherwise") {
  CHECK(load(kHead).order == RunOrder{RunOrder::Kind::interleaved, 0});
  CHECK(load(kHead + "order: grouped\n").order == RunOrder{RunOrder::Kind::grouped, 0});
  CHECK(load(kHead + "order: random\n").order == RunOrder{RunOrder::Kind::random, 0});
  CHECK(load(kHead + "order: {kind: random, seed: 42}\n").order == RunOrder{RunOrder::Kind::random, 42});
}

TEST_CASE("order: --set order=... replaces the file's, as sweep run --order does") {
  CHECK(load(kHead + "order: grouped\n", {{"order", "interleaved"}}).order.kind == RunOrder::Kind::interleaved);
  CHECK(load(kHead, {{"order", "{kind: random, seed: 7}"}}).order == RunOrder{RunOrder::Kind::random, 7});
}

TEST_CASE("order: each mistake is named where it is") {
  CHECK(load_error(kHead + "order: groupd\n") ==
        "x.yaml:6:8: unknown order \"groupd\" (available: interleaved, grouped, random) (did you mean \"grouped\"?)");
  CHECK(load_error(kHead + "order: {seed: 3}\n") ==
        "x.yaml:6:8: \"order\" as a map needs \"kind\" (interleaved, grouped or random)");
  CHECK(load_error(kHead + "order: {kind: grouped, seed: 3}\n") ==
        "x.yaml:6:30: \"order.seed\" is for kind: random only");
  CHECK(load_error(kHead + "order: {kind: random, seed: -1}\n") ==
        "x.yaml:6:29: \"order.seed\" must be an integer >= 0, got \"-1\"");
  CHECK_THAT(load_error(kHead + "order: {kind: random, sed: 1}\n"), Catch::Contains("unknown key \"sed\" (did you mean \"seed\"?)"));
}
