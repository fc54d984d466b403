// spec/resource_notation.h: the notation of time and memory resources, checked on rendered values.
#include <catch2/catch.hpp>

#include "spec/resource_notation.h"

using namespace sweep;
using spec::resource_notation_error;

namespace {
std::string error_of(const char* key, const char* value) { return resource_notation_error({key, value, {}}); }
}  // namespace

TEST_CASE("time and memory resources must be in sbatch's notation") {
  CHECK(error_of("time", "30").empty());
  CHECK(error_of("time", "UNLIMITED").empty());
  CHECK(error_of("time", "abc").starts_with("\"resources.time\" must be a time limit ("));
  CHECK(error_of("time", "90:75") == "\"resources.time\": seconds must be < 60 in \"90:75\"");
  for (const char* ok : {"4000", "4G", "512m", "0", "0G"}) CHECK(error_of("mem", ok).empty());
  CHECK(error_of("mem", "4GB") ==
        "\"resources.mem\" must be a memory size (MiB, or a number with K, M, G or T such as 4G; 0 for all of a node's), "
        "got \"4GB\"");
  CHECK(!error_of("mem-per-cpu", "1.5G").empty());
}

TEST_CASE("resources without a notation pass") {
  CHECK(error_of("partition", "gpu").empty());
  CHECK(error_of("nodes", "2").empty());
}
