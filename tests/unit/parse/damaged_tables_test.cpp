// The built-in parsers on damaged copies of the real outputs: cut short, with junk inserted, with
// garbled cells. The good rows are kept, every problem is a warning with its line, nothing throws.
#include <random>

#include "table_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

const std::string kH100 = "nccl-tests/all_reduce_perf_16gpu_h100.txt";  // rows 0-30 on lines 32-62
const std::string kOsuF = "osu/osu_allreduce_f.txt";                    // rows 0-18 on lines 4-22
const std::string kNcclColumns =
    "13 columns (size, count, type, redop, root, time, algbw, busbw, #wrong, time, algbw, busbw, #wrong)";
const std::vector<std::string> kNcclRowMetrics{"size_bytes",      "count",         "time_us",       "algbw",
                                               "busbw",           "wrong",         "time_us_inplace",
                                               "algbw_inplace",   "busbw_inplace", "wrong_inplace"};

/// `lines` (1-based `line` replaced by `text`).
std::string with_line(const std::string& file, std::size_t line, const std::string& text) {
  std::vector<std::string> lines = lines_of(data_file(file));
  lines.at(line - 1) = text;
  return joined(lines);
}

/// `file` with `text` inserted as a new line after 1-based `line`.
std::string with_inserted(const std::string& file, std::size_t line, const std::string& text) {
  std::vector<std::string> lines = lines_of(data_file(file));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(line), text);
  return joined(lines);
}

/// The byte offset where 1-based `line` of `text` starts.
std::size_t line_start(const std::string& text, std::size_t line) {
  std::size_t offset = 0;
  for (std::size_t l = 1; l < line; ++l) offset = text.find('\n', offset) + 1;
  return offset;
}

bool is_prefix(const std::vector<double>& part, const std::vector<double>& whole) {
  return part.size() <= whole.size() && std::equal(part.begin(), part.end(), whole.begin());
}

}  // namespace

TEST_CASE("damaged nccl-tests: cut in the middle of a row") {
  const std::string text = data_file(kH100);
  const Extraction e = parse_with("nccl-tests", text.substr(0, line_start(text, 52) + 60));  // "... -1  571."
  CHECK(e.warnings == std::vector<std::string>{
                          "stdout:52: nccl-tests: row has 6 fields, expected " + kNcclColumns + "; skipped",
                          "stdout:51: nccl-tests: the table ends without its \"# Avg bus bandwidth\" line (output "
                          "cut short?)"});
  CHECK(values_of(e, "size_bytes").size() == 20);
  CHECK(value_at(e, "busbw", 19) == 21.57);
  CHECK(value_at(e, "busbw_peak", 0) == 21.57);  // the peak of the rows that were kept
  CHECK(value_at(e, "busbw_peak_size_bytes", 0) == 4194304);
  CHECK(of(e, "busbw_avg").empty());
}

TEST_CASE("damaged nccl-tests: cut at every byte keeps a prefix of the rows and never throws") {
  const std::string text = data_file(kH100);
  const Extraction full = parse_with("nccl-tests", text);
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    Extraction e;
    REQUIRE_NOTHROW(e = parse_with("nccl-tests", std::string_view(text).substr(0, cut)));
    for (const std::string& metric : kNcclRowMetrics) {
      INFO("cut at " << cut << ", metric " << metric);
      CHECK(is_prefix(values_of(e, metric), values_of(full, metric)));
    }
    CHECK(e.warnings.size() <= 2);
  }
}

TEST_CASE("damaged nccl-tests: a header without rows, and no table at all") {
  const std::string text = data_file(kH100);
  Extraction e = parse_with("nccl-tests", text.substr(0, line_start(text, 32)));
  CHECK(e.warnings == std::vector<std::string>{"stdout:30: nccl-tests: table header without rows"});
  CHECK(e.observations.empty());
  const std::string no_table =
      "stdout: nccl-tests: no result table found (expected a header line like \"#  size  count  type  redop  root  "
      "time  algbw  busbw  #wrong ...\")";
  e = parse_with("nccl-tests", text.substr(0, line_start(text, 30)));
  CHECK(e.warnings == std::vector<std::string>{no_table});
  e = parse_with("nccl-tests", "");
  CHECK(e.warnings == std::vector<std::string>{no_table});
}

TEST_CASE("damaged nccl-tests: junk lines inside the table") {
  const std::string binary("\x00\x01\x02 garbage \xff\xfe", 14);
  Extraction e = parse_with("nccl-tests", with_inserted(kH100, 40, binary));
  CHECK(e.warnings ==
        std::vector<std::string>{"stdout:41: nccl-tests: line with binary data inside the table; skipped"});
  CHECK(values_of(e, "busbw") == values_of(parse_with("nccl-tests", data_file(kH100)), "busbw"));
  // text from another program between rows is not a row: no warning
  e = parse_with("nccl-tests", with_inserted(kH100, 40, "node17:41213:41213 [0] NCCL INFO Launch mode Parallel"));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "busbw").size() == 31);
}

TEST_CASE("damaged nccl-tests: garbled cells lose only themselves") {
  const std::string row13 =
      "       65536         16384     float     sum      -1    {}    0.41    {}      0    157.6    0.42    0.78      0";
  const auto garbled = [&](const std::string& time, const std::string& busbw) {
    std::string row = row13;
    row.replace(row.find("{}"), 2, time);
    row.replace(row.find("{}"), 2, busbw);
    return parse_with("nccl-tests", with_line(kH100, 45, row));
  };
  Extraction e = garbled("159.4x", "0.77");
  CHECK(e.warnings == std::vector<std::string>{"stdout:45: metric \"time_us\": value \"159.4x\" is not a number"});
  CHECK(value_at(e, "busbw", 13) == 0.77);
  CHECK(value_at(e, "time_us_inplace", 13) == 157.6);
  CHECK(values_of(e, "time_us").size() == 30);
  e = garbled("159.4", "1e999");
  CHECK(e.warnings == std::vector<std::string>{"stdout:45: metric \"busbw\": value \"1e999\" is out of range"});
  e = garbled("nan", "0.77");
  CHECK(e.warnings == std::vector<std::string>{"stdout:45: metric \"time_us\": value \"nan\" is not finite"});
  e = parse_with("nccl-tests", with_line(kH100, 45, row13 + "  0"));
  CHECK(e.warnings.size() == 1);
  CHECK_THAT(e.warnings[0], Catch::StartsWith("stdout:45: nccl-tests: row has 14 fields, expected 13 columns"));
  CHECK(values_of(e, "size_bytes").size() == 30);
}

TEST_CASE("damaged nccl-tests: a summary without its value") {
  const Extraction e = parse_with("nccl-tests", with_line(kH100, 64, "# Avg bus bandwidth    :"));
  CHECK(e.warnings == std::vector<std::string>{"stdout:64: nccl-tests: no value after \"Avg bus bandwidth :\""});
  CHECK(of(e, "busbw_avg").empty());
  CHECK(value_at(e, "busbw_peak", 0) == 338.82);
}

TEST_CASE("damaged nccl-tests: warnings stay capped however many rows are bad") {
  std::vector<std::string> lines = lines_of(data_file(kH100));
  lines.insert(lines.begin() + 40, 500, "  1024  256  float");
  const Extraction e = parse_with("nccl-tests", joined(lines));
  REQUIRE(e.warnings.size() == 101);
  CHECK(e.warnings.back() == "... 400 more warnings");
  CHECK(values_of(e, "busbw").size() == 31);
}

TEST_CASE("damaged osu: cut mid-row, a header without rows, no table") {
  const std::string text = data_file(kOsuF);
  Extraction e = parse_with("osu", text.substr(0, line_start(text, 12) + 40));  // "1024   115.72   "
  CHECK(e.warnings ==
        std::vector<std::string>{"stdout:12: osu: row has 2 fields, expected 5 columns (Size, Avg Latency(us), Min "
                                 "Latency(us), Max Latency(us), Iterations); skipped"});
  CHECK(values_of(e, "latency_us").size() == 8);
  e = parse_with("osu", text.substr(0, line_start(text, 4)));
  CHECK(e.warnings == std::vector<std::string>{"stdout:3: osu: table header without rows"});
  e = parse_with("osu", text.substr(0, line_start(text, 3)));
  CHECK(e.warnings == std::vector<std::string>{
                          "stdout: osu: no result table found (expected a header line like \"# Size       Avg "
                          "Latency(us)\")"});
}

TEST_CASE("damaged osu: cut at every byte keeps a prefix of the rows and never throws") {
  const std::string text = data_file(kOsuF);
  const Extraction full = parse_with("osu", text);
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    Extraction e;
    REQUIRE_NOTHROW(e = parse_with("osu", std::string_view(text).substr(0, cut)));
    INFO("cut at " << cut);
    CHECK(is_prefix(values_of(e, "size_bytes"), values_of(full, "size_bytes")));
    CHECK(is_prefix(values_of(e, "latency_max_us"), values_of(full, "latency_max_us")));
    CHECK(e.warnings.size() <= 2);  // a header cut in a name: that unknown name, then no rows
  }
}

TEST_CASE("damaged osu: garbled cells and junk lines") {
  const std::string row8 = "1024                  nan            112.42            120.63        1000";
  Extraction e = parse_with("osu", with_line(kOsuF, 12, row8));
  CHECK(e.warnings == std::vector<std::string>{"stdout:12: metric \"latency_us\": value \"nan\" is not finite"});
  CHECK(value_at(e, "latency_min_us", 8) == 112.42);
  e = parse_with("osu", with_inserted(kOsuF, 12, std::string("\x7f\x45LF\x02\x01\x01", 7)));
  CHECK(e.warnings == std::vector<std::string>{"stdout:13: osu: line with binary data inside the table; skipped"});
  CHECK(values_of(e, "size_bytes").size() == 19);
}

TEST_CASE("damaged real outputs with random bytes never crash or throw") {
  std::mt19937 rng(2024);
  for (const std::string& file : {kH100, std::string("nccl-tests/all_reduce_perf_mpirun_tag_output.txt"), kOsuF,
                                 std::string("osu/osu_allreduce.txt")}) {
    const std::string original = data_file(file);
    for (int round = 0; round < 200; ++round) {
      std::string text = original;
      for (int n = 0; n < 1 + round % 8; ++n) {
        std::string junk(rng() % 40, '\0');
        for (char& c : junk) c = static_cast<char>(rng() % 256);
        text.insert(rng() % (text.size() + 1), junk);
      }
      text.resize(rng() % (text.size() + 1));
      for (const std::string parser : {"nccl-tests", "osu"}) {
        Extraction e;
        REQUIRE_NOTHROW(e = parse_with(parser, text));
        CHECK(e.warnings.size() <= 101);
      }
    }
  }
}
