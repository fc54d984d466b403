// Launcher tags: srun --label and mpirun --tag-output, and which rank's table is read.
#include <catch2/catch.hpp>

#include "parse/tagged_lines.h"

using namespace sweep::parse;

namespace {

LineTag srun(unsigned long rank) { return LineTag{true, rank, 0}; }
LineTag mpirun(unsigned long job, unsigned long rank) { return LineTag{true, rank, job}; }

bool starts_with_hash(std::string_view body) { return !body.empty() && body[0] == '#'; }

}  // namespace

TEST_CASE("tagged lines: srun --label") {
  CHECK(split_tag(1, "0: # size").tag == srun(0));
  CHECK(split_tag(1, "0: # size").body == "# size");
  CHECK(split_tag(1, " 12:      8388608  2097152").tag == srun(12));
  CHECK(split_tag(1, " 12:      8388608  2097152").body == "     8388608  2097152");
  CHECK(split_tag(1, " 0:").tag == srun(0));  // an empty line of task 0
  CHECK(split_tag(1, " 0:").body.empty());
  CHECK(split_tag(7, "3: x\r").body == "x");
  CHECK(split_tag(7, "3: x\r").number == 7);
}

TEST_CASE("tagged lines: mpirun --tag-output") {
  CHECK(split_tag(1, "[1,0]<stdout>:#       size").tag == mpirun(1, 0));
  CHECK(split_tag(1, "[1,0]<stdout>:#       size").body == "#       size");
  CHECK(split_tag(1, "[2,15]<stderr>: text").tag == mpirun(2, 15));
  CHECK(split_tag(1, "[2,15]<stderr>: text").body == "text");
}

TEST_CASE("tagged lines: lines that only look tagged") {
  for (const std::string_view line :
       {"12:30:45 INFO started", "   8388608       2097152     float", "[R6KD-GPU-11:02943] 15 more processes",
        "[1,0]stdout: x", "1234567890123: x", "# Out of bounds values : 0 OK", ""}) {
    INFO(line);
    CHECK_FALSE(split_tag(1, line).tag.tagged);
    CHECK(split_tag(1, line).body == line);
  }
}

TEST_CASE("tagged lines: every line is visited once, the last one without a newline too") {
  std::vector<std::size_t> numbers;
  std::vector<std::string_view> bodies;
  for_each_tagged_line("a\n0: b\r\n\nc", [&](const TaggedLine& l) {
    numbers.push_back(l.number);
    bodies.push_back(l.body);
  });
  CHECK(numbers == std::vector<std::size_t>{1, 2, 3, 4});
  CHECK(bodies == std::vector<std::string_view>{"a", "b", "", "c"});
}

TEST_CASE("tagged lines: the table owner is untagged, else the lowest rank") {
  CHECK(table_owner("1: # t\n0: x\n0: # t\n", starts_with_hash) == srun(0));
  CHECK(table_owner("[1,3]<stdout>:# t\n[1,2]<stdout>:# t\n", starts_with_hash) == mpirun(1, 2));
  CHECK(table_owner("1: # t\n# t\n", starts_with_hash) == LineTag{});
  CHECK(table_owner("no header\n", starts_with_hash) == std::nullopt);
  CHECK(comes_before(LineTag{}, srun(0)));
  CHECK(comes_before(mpirun(2, 0), mpirun(1, 1)));
}
