// The nccl-tests parser on real outputs (tests/unit/parse/data/README.md names their sources).
#include "table_test_util.h"

using namespace sweep;
using namespace sweep::parse;
using namespace sweep::parse::test;

namespace {

const std::string kH100 = "nccl-tests/all_reduce_perf_16gpu_h100.txt";  // 31 rows, lines 32-62
const std::string kSrun = "nccl-tests/all_reduce_perf_srun_label.txt";  // 11 rows, " 0: " tags
const std::string kMpirun = "nccl-tests/all_reduce_perf_mpirun_tag_output.txt";  // 28 rows, old format

/// `text` with every line prefixed by `tag`.
std::string tagged(const std::string& text, const std::string& tag) {
  std::vector<std::string> lines = lines_of(text);
  for (std::string& line : lines) line = tag + line;
  return joined(lines);
}

/// The lines of `a` and `b` alternating, starting with `a`.
std::string interleaved(const std::string& a, const std::string& b) {
  const std::vector<std::string> la = lines_of(a), lb = lines_of(b);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
    if (i < la.size()) out.push_back(la[i]);
    if (i < lb.size()) out.push_back(lb[i]);
  }
  return joined(out);
}

}  // namespace

TEST_CASE("nccl-tests: all_reduce_perf on 16 H100, every column of every row") {
  const Extraction e = parse_with("nccl-tests", data_file(kH100));
  CHECK(e.warnings.empty());
  REQUIRE(values_of(e, "size_bytes").size() == 31);
  CHECK(values_of(e, "size_bytes").front() == 8);
  CHECK(values_of(e, "size_bytes").back() == 8589934592.0);
  // row 3: "64  16  float  sum  -1  123.4  0.00  0.00  0  122.9  0.00  0.00  0"
  CHECK(value_at(e, "size_bytes", 3) == 64);
  CHECK(value_at(e, "time_us", 3) == 123.4);
  CHECK(value_at(e, "busbw", 3) == 0.0);
  CHECK(value_at(e, "time_us_inplace", 3) == 122.9);
  // row 27: "1073741824  268435456  float  sum  -1  6759.0  158.86  297.86  0  6737.4  159.37  298.82  0"
  CHECK(value_at(e, "size_bytes", 27) == 1073741824.0);
  CHECK(value_at(e, "count", 27) == 268435456.0);
  CHECK(value_at(e, "time_us", 27) == 6759.0);
  CHECK(value_at(e, "algbw", 27) == 158.86);
  CHECK(value_at(e, "busbw", 27) == 297.86);
  CHECK(value_at(e, "wrong", 27) == 0);
  CHECK(value_at(e, "time_us_inplace", 27) == 6737.4);
  CHECK(value_at(e, "algbw_inplace", 27) == 159.37);
  CHECK(value_at(e, "busbw_inplace", 27) == 298.82);
  CHECK(value_at(e, "wrong_inplace", 27) == 0);
  CHECK(value_at(e, "time_us", 28) == 12646);  // printed without decimals
}

TEST_CASE("nccl-tests: summaries, peak, units and directions") {
  const Extraction e = parse_with("nccl-tests", data_file(kH100));
  CHECK(value_at(e, "busbw_avg", 0) == 70.742);
  CHECK(value_at(e, "out_of_bounds", 0) == 0);
  CHECK(value_at(e, "busbw_peak", 0) == 338.82);
  CHECK(value_at(e, "busbw_peak_size_bytes", 0) == 8589934592.0);
  const auto first = [&](const std::string& name) { return of(e, name).at(0); };
  CHECK((first("busbw").unit == "GB/s" && first("busbw").better == "higher"));
  CHECK((first("busbw_inplace").unit == "GB/s" && first("busbw_inplace").better == "higher"));
  CHECK((first("algbw").unit == "GB/s" && first("algbw").better == "higher"));
  CHECK((first("time_us").unit == "us" && first("time_us").better == "lower"));
  CHECK((first("wrong").unit == "elements" && first("wrong").better == "lower"));
  CHECK((first("size_bytes").unit == "B" && first("size_bytes").better.empty()));
  CHECK((first("count").unit == "elements" && first("count").better.empty()));
  CHECK((first("busbw_avg").unit == "GB/s" && first("busbw_avg").better == "higher"));
  CHECK((first("busbw_peak_size_bytes").unit == "B"));
  CHECK(first("out_of_bounds").better == "lower");
  // 31 rows x 10 columns + 4 summaries
  CHECK(e.observations.size() == 31 * 10 + 4);
}

TEST_CASE("nccl-tests: every observation of a row carries the row number") {
  const Extraction e = parse_with("nccl-tests", data_file(kH100));
  for (const std::string name : {"size_bytes", "time_us", "busbw", "wrong_inplace"}) {
    std::vector<std::size_t> indexes;
    for (const Observation& o : of(e, name)) indexes.push_back(o.index);
    std::vector<std::size_t> expected(31);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = i;
    CHECK(indexes == expected);
  }
}

TEST_CASE("nccl-tests: srun --label output with the check off (#wrong N/A)") {
  const Extraction e = parse_with("nccl-tests", data_file(kSrun));
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "size_bytes").size() == 11);
  CHECK(value_at(e, "size_bytes", 0) == 8388608);
  CHECK(value_at(e, "busbw", 0) == 73.04);
  CHECK(value_at(e, "busbw_inplace", 10) == 155.56);
  CHECK(of(e, "wrong").empty());  // "N/A": no observation and no warning
  CHECK(of(e, "wrong_inplace").empty());
  CHECK(value_at(e, "busbw_avg", 0) == 142.735);
  CHECK(value_at(e, "busbw_peak", 0) == 166.22);
  CHECK(value_at(e, "busbw_peak_size_bytes", 0) == 268435456);
}

TEST_CASE("nccl-tests: mpirun --tag-output, the old layout with error and without root") {
  const Extraction e = parse_with("nccl-tests", data_file(kMpirun));
  CHECK(e.warnings.empty());  // the other ranks' NCCL INFO lines are not part of the table
  CHECK(values_of(e, "size_bytes").size() == 28);
  CHECK(value_at(e, "wrong", 0) == 2e-07);  // older versions print a float error
  CHECK(value_at(e, "wrong_inplace", 0) == 1e-07);
  CHECK(value_at(e, "time_us", 20) == 1228.0);  // "8388608  2097152  float  sum  1228.0  6.83  12.81 ..."
  CHECK(value_at(e, "busbw", 20) == 12.81);
  CHECK(value_at(e, "busbw", 27) == 32.71);
  CHECK(value_at(e, "busbw_avg", 0) == 7.80081);
  CHECK(value_at(e, "busbw_peak", 0) == 32.71);
  CHECK(value_at(e, "busbw_peak_size_bytes", 0) == 1073741824);
}

TEST_CASE("nccl-tests: a tagged table reads like the untagged one") {
  const std::string text = data_file(kH100);
  const Extraction plain = parse_with("nccl-tests", text);
  for (const std::string tag : {"0: ", " 12: ", "[1,0]<stdout>:", "[3,5]<stdout>: "}) {
    const Extraction e = parse_with("nccl-tests", tagged(text, tag));
    CHECK(e.warnings.empty());
    CHECK(values(e) == values(plain));
    CHECK(indexes(e) == indexes(plain));
  }
}

TEST_CASE("nccl-tests: when several ranks print a table, the lowest rank's is read") {
  const std::string h100 = data_file(kH100), srun = data_file(kSrun);  // srun's lines are " 0: " tagged
  const Extraction rank0 = parse_with("nccl-tests", srun);
  // rank 1 prints first and more rows; rank 0 still wins
  Extraction e = parse_with("nccl-tests", interleaved(tagged(h100, "1: "), srun));
  CHECK(e.warnings.empty());
  CHECK(values(e) == values(rank0));
  e = parse_with("nccl-tests", interleaved(tagged(h100, "[1,3]<stdout>:"), tagged(h100, "[1,2]<stdout>:")));
  CHECK(values_of(e, "size_bytes").size() == 31);
  // untagged lines come before any rank
  e = parse_with("nccl-tests", interleaved(srun, h100));
  CHECK(values_of(e, "size_bytes").size() == 31);
}

TEST_CASE("nccl-tests: CRLF line ends") {
  std::string text;
  for (const std::string& line : lines_of(data_file(kH100))) text += line + "\r\n";
  const Extraction e = parse_with("nccl-tests", text);
  CHECK(e.warnings.empty());
  CHECK(values(e) == values(parse_with("nccl-tests", data_file(kH100))));
}

TEST_CASE("nccl-tests: two tables in one output keep counting rows, summaries take the table number") {
  const std::string text = data_file(kH100) + data_file(kSrun);
  const Extraction e = parse_with("nccl-tests", text);
  CHECK(e.warnings.empty());
  CHECK(values_of(e, "size_bytes").size() == 31);  // srun's table belongs to tagged rank 0, not read
  const Extraction both = parse_with("nccl-tests", data_file(kH100) + data_file(kH100));
  CHECK(values_of(both, "size_bytes").size() == 62);
  CHECK(value_at(both, "size_bytes", 31) == 8);
  CHECK(value_at(both, "busbw_avg", 1) == 70.742);
  CHECK(value_at(both, "busbw_peak", 1) == 338.82);
}

TEST_CASE("nccl-tests: the timestamp column of -T takes two fields") {
  std::vector<std::string> lines = lines_of(data_file(kH100));
  lines[29] += "            timestamp";  // the header (line 30)
  for (std::size_t i = 31; i <= 61; ++i) lines[i] += "  2025-03-04 09:13:02";
  const Extraction e = parse_with("nccl-tests", joined(lines));
  CHECK(e.warnings.empty());
  CHECK(values(e) == values(parse_with("nccl-tests", data_file(kH100))));
}

TEST_CASE("nccl-tests: an unknown column is warned about once and skipped") {
  std::vector<std::string> lines = lines_of(data_file(kH100));
  lines[29] += "  extra";
  for (std::size_t i = 31; i <= 61; ++i) lines[i] += "  1.5";
  const Extraction e = parse_with("nccl-tests", joined(lines));
  CHECK(e.warnings ==
        std::vector<std::string>{"stdout:30: nccl-tests: unknown column \"extra\" in the table header; its values "
                                 "are ignored"});
  CHECK(values_of(e, "busbw").size() == 31);
}

TEST_CASE("nccl-tests: a parser rule reads its declared source") {
  const Extractor extractor({parser_rule("nccl-tests", "logs/nccl.txt"), parser_rule("osu", "stderr")});
  CHECK(extractor.sources() == std::vector<std::string>{"stdout", "stderr", "logs/nccl.txt"});
  const std::string text = data_file(kH100);
  const Extraction e = extractor.extract({{"stdout", text}, {"logs/nccl.txt", text}});
  CHECK(values_of(e, "size_bytes").size() == 31);  // stdout is not read; stderr is absent, so osu is silent
  CHECK(e.warnings.empty());
}
