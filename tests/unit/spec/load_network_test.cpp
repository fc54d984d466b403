// The `network` key: which network-card counters a run samples.
#include "load_helpers.h"

using namespace spec_test;
using sweep::spec::Experiment;

TEST_CASE("network: off without the key, on with the default rule when given empty") {
  const Experiment none = load(kHead);
  CHECK(none.network.where.file.empty());  // not given: runner samples nothing
  const Experiment e = load(kHead + "network: {}\n");
  CHECK(e.network.counters);
  CHECK(e.network.interfaces.empty());
  CHECK(e.network.where.str() == "x.yaml:6:10");
}

TEST_CASE("network: named interfaces and IB ports, or off") {
  const Experiment e = load(kHead + "network:\n  interfaces: [lo, eth0.100, mlx5_0/1]\n");
  CHECK(e.network.counters);
  CHECK(e.network.interfaces == std::vector<std::string>{"lo", "eth0.100", "mlx5_0/1"});
  CHECK(e.network.where.str() == "x.yaml:7:3");
  CHECK_FALSE(load(kHead + "network: {counters: false}\n").network.counters);
}

TEST_CASE("network: errors") {
  CHECK(load_error(kHead + "network:\n  interface: [lo]\n") == "x.yaml:7:3: unknown key \"interface\" (did you mean \"interfaces\"?)");
  CHECK(load_error(kHead + "network:\n  counters: maybe\n") ==
        "x.yaml:7:13: \"network.counters\" must be true or false, got \"maybe\"");
  CHECK_THAT(load_error(kHead + "network:\n  interfaces: lo\n"),
             Catch::StartsWith("x.yaml:7:15: \"network.interfaces\" must be a list of interface names"));
  CHECK_THAT(load_error(kHead + "network:\n  interfaces: []\n"), Catch::Contains("must be at least one interface"));
  CHECK_THAT(load_error(kHead + "network:\n  interfaces: [lo, \"a b\"]\n"),
             Catch::StartsWith("x.yaml:7:20: ") && Catch::Contains("must be an interface name"));
  CHECK_THAT(load_error(kHead + "network:\n  interfaces: [mlx5_0/x]\n"),
             Catch::StartsWith("x.yaml:7:16: ") && Catch::Contains("must be an interface name"));
  CHECK(load_error(kHead + "network:\n  interfaces: [lo, lo]\n") == "x.yaml:7:20: interface \"lo\" is named twice");
  CHECK_THAT(load_error(kHead + "networks: {}\n"), Catch::EndsWith("(did you mean \"network\"?)"));
}
