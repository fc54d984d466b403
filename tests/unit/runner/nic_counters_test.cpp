// Network-counter snapshots and the volume and throughput of a run: literals in, literals out.
#include <catch2/catch.hpp>

#include "runner/nic_counters.h"
#include "util/error.h"

using namespace sweep;
using namespace sweep::runner;

namespace {

std::string snapshot(const std::string& moment, const std::string& node, const std::string& time,
                     const std::string& interfaces, const std::string& counters) {
  return "format=1\nmoment=" + moment + "\nnode=" + node + "\ntime_s=" + time + "\ninterfaces=" + interfaces + "\n" + counters;
}

std::string parse_error(const std::string& text) {
  try {
    parse_nic_snapshot(text, "run/nic.start.n1");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a snapshot's lines: fields, interfaces and IB ports in bytes") {
  const NicSnapshot s = parse_nic_snapshot(
      snapshot("start", "n1", "1700000000,25", "lo eth0", "net lo 772 unknown 10 20\nib mlx5_0/1 3 5\n"), "f");
  CHECK(s.moment == "start");
  CHECK(s.node == "n1");
  CHECK(s.time_s == Approx(1700000000.25));
  CHECK(s.interfaces == std::vector<std::string>{"lo", "eth0"});
  REQUIRE(s.counters.size() == 2);
  CHECK(s.counters[0].name == "lo");
  CHECK(s.counters[0].type == 772);
  CHECK(s.counters[0].operstate == "unknown");
  CHECK(s.counters[0].rx_bytes == 10);
  CHECK(s.counters[0].tx_bytes == 20);
  CHECK(s.counters[1].infiniband);
  CHECK(s.counters[1].name == "mlx5_0/1");
  CHECK(s.counters[1].rx_bytes == 12);  // 4-byte words
  CHECK(s.counters[1].tx_bytes == 20);
}

TEST_CASE("a snapshot's errors name file:line:column and what was expected") {
  CHECK(parse_error("format=2\n") == "run/nic.start.n1:1:8: expected format 1, got \"2\"");
  CHECK(parse_error("format=1\nmoment=middle\n") == "run/nic.start.n1:2:8: expected start or end, got \"middle\"");
  CHECK(parse_error(snapshot("start", "n", "x", "", "")) == "run/nic.start.n1:4:8: expected seconds since the epoch, got \"x\"");
  CHECK(parse_error(snapshot("start", "n", "1", "", "net eth0 1 up 12 -3\n")) ==
        "run/nic.start.n1:6:18: expected a counter (a non-negative integer), got \"-3\"");
  CHECK(parse_error(snapshot("start", "n", "1", "", "net eth0 1 up 12\n")) ==
        "run/nic.start.n1:6:1: expected \"net <interface> <type> <operstate> <rx_bytes> <tx_bytes>\", got \"net eth0 1 up 12\"");
  CHECK(parse_error(snapshot("start", "n", "1", "", "eth eth0\n")) ==
        "run/nic.start.n1:6:1: expected \"net\", \"ib\" or a key=value line, got \"eth\"");
  CHECK(parse_error("moment=start\n") == "run/nic.start.n1:1:1: expected a network-counter snapshot starting with format=1 and naming its moment");
}

TEST_CASE("the default rule: interfaces that are up except loopback and IPoIB, and IB ports") {
  const std::vector<std::string> none;
  CHECK(carries_traffic({"eth0", false, 1, "up", 0, 0}, none));
  CHECK_FALSE(carries_traffic({"eth1", false, 1, "down", 0, 0}, none));
  CHECK_FALSE(carries_traffic({"lo", false, 772, "unknown", 0, 0}, none));
  CHECK_FALSE(carries_traffic({"ib0", false, 32, "up", 0, 0}, none));
  CHECK(carries_traffic({"mlx5_0/1", true, 0, "", 0, 0}, none));
  const std::vector<std::string> named{"lo"};
  CHECK(carries_traffic({"lo", false, 772, "unknown", 0, 0}, named));
  CHECK_FALSE(carries_traffic({"eth0", false, 1, "up", 0, 0}, named));
}

TEST_CASE("volume sums transmitted bytes over nodes and chosen interfaces, throughput over the measured span") {
  const std::string counters_a = "net lo 772 unknown 0 1000\nnet eth0 1 up 0 500\nnet eth1 1 down 0 0\nib mlx5_0/1 0 100\n";
  const std::string counters_b = "net lo 772 unknown 999 3000\nnet eth0 1 up 999 2500\nnet eth1 1 down 0 7000\nib mlx5_0/1 0 350\n";
  const std::vector<NicSnapshot> run{
      parse_nic_snapshot(snapshot("end", "n1", "12.5", "", counters_b), "a"),
      parse_nic_snapshot(snapshot("start", "n1", "10", "", counters_a), "b"),
      parse_nic_snapshot(snapshot("start", "n2", "10.5", "", "net eth0 1 up 0 0\n"), "c"),
      parse_nic_snapshot(snapshot("end", "n2", "14", "", "net eth0 1 up 0 4000\n"), "d"),
  };
  const NicMeasure m = nic_measure(run);
  CHECK(m.volume_bytes == 2000 + 1000 + 4000);  // n1: eth0 and mlx5_0/1 (250 words); n2: eth0
  // The workload ran after n2's start sample (10.5) and before n1's end sample (12.5): the sampling
  // steps' own node-by-node start-up and wind-down (10 to 10.5, 12.5 to 14) are not in the span.
  CHECK(m.span_s == Approx(2.0));
  CHECK(m.sampled_span_s == Approx(4.0));
  CHECK(m.throughput_bps == Approx(7000.0 * 8 / 2));
}

TEST_CASE("on one node the measured span is the sampled span, and samples that bracket no workload are an error") {
  const std::vector<NicSnapshot> one{
      parse_nic_snapshot(snapshot("start", "n1", "100.25", "", "net eth0 1 up 0 0\n"), "a"),
      parse_nic_snapshot(snapshot("end", "n1", "102.25", "", "net eth0 1 up 0 1000\n"), "b"),
  };
  const NicMeasure m = nic_measure(one);
  CHECK(m.span_s == Approx(2.0));
  CHECK(m.sampled_span_s == Approx(2.0));
  CHECK(m.throughput_bps == Approx(4000.0));
  const std::vector<NicSnapshot> apart{
      parse_nic_snapshot(snapshot("start", "n1", "1", "", "net eth0 1 up 0 0\n"), "a"),
      parse_nic_snapshot(snapshot("end", "n1", "2", "", "net eth0 1 up 0 10\n"), "b"),
      parse_nic_snapshot(snapshot("start", "n2", "3", "", "net eth0 1 up 0 0\n"), "c"),
      parse_nic_snapshot(snapshot("end", "n2", "4", "", "net eth0 1 up 0 10\n"), "d"),
  };
  CHECK_THROWS_WITH(nic_measure(apart), "the samples do not bracket one workload: a node's end sample (2.000000) is "
                                        "earlier than another's start sample (3.000000)");
  // A workload of a few milliseconds on nodes whose clocks disagree by more: the whole sampled span, said.
  const std::vector<NicSnapshot> skewed{
      parse_nic_snapshot(snapshot("start", "n1", "10.000", "", "net eth0 1 up 0 0\n"), "a"),
      parse_nic_snapshot(snapshot("end", "n1", "10.004", "", "net eth0 1 up 0 10\n"), "b"),
      parse_nic_snapshot(snapshot("start", "n2", "10.020", "", "net eth0 1 up 0 0\n"), "c"),
      parse_nic_snapshot(snapshot("end", "n2", "10.030", "", "net eth0 1 up 0 10\n"), "d"),
  };
  const NicMeasure s = nic_measure(skewed);
  CHECK(s.span_s == Approx(0.030));
  CHECK(s.throughput_bps == Approx(20.0 * 8 / 0.030));
  CHECK_THAT(s.note, Catch::Contains("the nodes' clocks disagree"));
  CHECK(m.note.empty());
}

TEST_CASE("the experiment's interfaces replace the rule") {
  const std::vector<NicSnapshot> run{
      parse_nic_snapshot(snapshot("start", "n1", "1", "lo", "net lo 772 unknown 0 100\nnet eth0 1 up 0 0\n"), "a"),
      parse_nic_snapshot(snapshot("end", "n1", "3", "lo", "net lo 772 unknown 0 900\nnet eth0 1 up 0 50\n"), "b"),
  };
  CHECK(nic_measure(run).volume_bytes == 800);
}

TEST_CASE("a node without both moments, or a counter that went back, is an error") {
  const NicSnapshot start = parse_nic_snapshot(snapshot("start", "n1", "1", "", "net eth0 1 up 0 100\n"), "a");
  const NicSnapshot back = parse_nic_snapshot(snapshot("end", "n1", "2", "", "net eth0 1 up 0 40\n"), "b");
  CHECK_THROWS_WITH(nic_measure({start}), "node n1 has no end network-counter snapshot");
  CHECK_THROWS_WITH(nic_measure({back}), "node n1 has no start network-counter snapshot");
  CHECK_THROWS_WITH(nic_measure({start, back}), "node n1: the tx counter of eth0 went back from 100 to 40");
}
