// spec/escalation.h: sbatch's memory notation (time: time_limit_test.cpp), the bounded growth, and the `escalate` reader.
#include "load_helpers.h"
#include "spec/escalation.h"

using namespace sweep::spec;
using spec_test::load;
using spec_test::load_error;

namespace {
const std::string kTop = "name: t\nmatrix: {n: [1]}\nworkload: {command: x}\nresources: {time: 10, mem: 4G}\n";  // 1-4
}  // namespace

TEST_CASE("sbatch memory sizes with units, in MiB") {
  CHECK(slurm_memory_mib("4000") == 4000.0);
  CHECK(slurm_memory_mib("512M") == 512.0);
  CHECK(slurm_memory_mib("4G") == 4096.0);
  CHECK(slurm_memory_mib("4g") == 4096.0);
  CHECK(slurm_memory_mib("1T") == 1048576.0);
  CHECK(slurm_memory_mib("2048K") == 2.0);
  for (const char* bad : {"", "0", "G", "4GB", "1.5G", "-1"}) CHECK(!slurm_memory_mib(bad));
  CHECK(slurm_memory_text(2.5) == "3M");
}

TEST_CASE("growth is factor^failures from the base, capped at max, never below the base") {
  const Escalation e{"time", "timeout", 2, 3600, {}};
  CHECK(escalated(600, e, 0) == 600);
  CHECK(escalated(600, e, 1) == 1200);
  CHECK(escalated(600, e, 2) == 2400);
  CHECK(escalated(600, e, 3) == 3600);  // 4800 capped
  CHECK(escalated(7200, e, 1) == 7200);  // the experiment already asks for more than the bound
}

TEST_CASE("escalate: read with its failure class, errors name the place and what was expected") {
  const Experiment e = load(kTop + "retries: {TIMEOUT: 2, OUT_OF_MEMORY: 1}\n"
                                   "escalate:\n  time: {factor: 1.5, max: \"2:00:00\"}\n  mem: {max: 64G}\n");
  REQUIRE(e.escalations.size() == 2);
  CHECK(e.escalations[0].resource == "time");
  CHECK(e.escalations[0].failure_class == "timeout");
  CHECK(e.escalations[0].factor == 1.5);
  CHECK(e.escalations[0].max == 7200.0);
  CHECK(e.escalations[1].failure_class == "out_of_memory");
  CHECK(e.escalations[1].factor == 2);  // the default
  CHECK(e.escalations[1].max == 65536.0);

  CHECK(load_error(kTop + "retries: {TIMEOUT: 1}\nescalate: {time: {factor: 2}}\n") ==
        "x.yaml:6:12: \"escalate.time\" needs \"max\": a time limit such as \"04:00:00\" (the most a retry may ask for)");
  CHECK(load_error(kTop + "retries: {TIMEOUT: 1}\nescalate: {time: {factor: 1, max: 60}}\n") ==
        "x.yaml:6:27: \"escalate.time.factor\" must be a factor above 1 and at most 100, got \"1\"");
  CHECK_THAT(load_error(kTop + "retries: {OUT_OF_MEMORY: 1}\nescalate: {mem: {max: lots}}\n"),
             Catch::StartsWith("x.yaml:6:23: \"escalate.mem.max\" must be a memory size such as 64G"));
  CHECK(load_error(kTop + "escalate: {time: {max: 60}}\n") ==
        "x.yaml:5:12: \"escalate.time\" grows the retries of TIMEOUT, but \"retries\" gives TIMEOUT none "
        "(add retries: {TIMEOUT: 2})");
  CHECK_THAT(load_error(kTop + "retries: {TIMEOUT: 1}\nescalate: {tme: {max: 60}}\n"),
             Catch::StartsWith("x.yaml:6:12: unknown key \"tme\" (did you mean \"time\"?)"));
}
