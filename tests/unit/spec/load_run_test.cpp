// spec::load_text: workload, resources (time limits), metrics, success and executor.
#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::load;
using spec_test::load_error;

namespace {

const std::string kTop = "name: t\nmatrix: {n: [1]}\n";    // lines 1-2
const std::string kWorkload = "workload: {command: x}\n";  // line 3 after kTop

std::optional<double> timeout_of(const std::string& time) {
  return load(kTop + kWorkload + "resources: {time: " + time + "}\n").timeout_s;
}

std::string time_error(const std::string& time) {
  return load_error(kTop + kWorkload + "resources: {time: " + time + "}\n");
}

std::string metric_error(const std::string& metric) {
  return load_error(kTop + kWorkload + "metrics:\n  - " + metric + "\n");
}

}  // namespace

TEST_CASE("workload: command and launcher") {
  const Experiment e = load(kTop + "workload:\n  command: \"run {{n}}\"\n  launcher: local\n");
  CHECK(e.workloads[0].command == "run {{n}}");
  CHECK(e.workloads[0].command_where.str() == "x.yaml:4:13");  // the first character inside the quotes
  CHECK(e.workloads[0].launcher == "local");
  CHECK(e.workloads[0].program.empty());
  CHECK(e.workloads[0].where.str() == "x.yaml:4:3");
}

TEST_CASE("workload: a bundled program with templated arguments") {
  const Experiment e = load(kTop + "workload:\n  bundled: collbench\n  launcher: srun\n  args:\n"
                                   "    op: allreduce\n    min-bytes: \"{{n}}M\"\n    inplace: true\n"
                                   "    check: false\n    rendezvous: \"it's here\"\n");
  CHECK(e.workloads[0].program == "collbench");
  CHECK(e.workloads[0].command ==
        "--op 'allreduce' --min-bytes {{n}}'M' --inplace --no-check --rendezvous 'it'\\''s here'");
  CHECK(e.workloads[0].command_where.str() == "x.yaml:7:5");
}

TEST_CASE("workload: errors") {
  CHECK(load_error(kTop + "workload:\n  launcher: local\n") ==
        "x.yaml:4:3: \"workload\" needs \"command\" (or \"bundled\" for a bundled program)");
  CHECK(load_error(kTop + "workload:\n  bundled: colbench\n") ==
        "x.yaml:4:12: unknown bundled program \"colbench\" (available: collbench, trainbench) (did you mean \"collbench\"?)");
  CHECK(load_error(kTop + "workload:\n  command: x\n  bundled: collbench\n") ==
        "x.yaml:5:3: \"workload\" takes either \"command\" or \"bundled\", not both");
  CHECK(load_error(kTop + "workload:\n  command: x\n  args: {op: allreduce}\n") ==
        "x.yaml:5:3: \"workload.args\" needs \"bundled\" (use them in \"command\")");
  CHECK_THAT(load_error(kTop + "workload:\n  bundled: collbench\n  args:\n    opp: allreduce\n"),
             Catch::StartsWith("x.yaml:6:5: collbench has no option \"opp\" (options: op, backend,"));
  CHECK_THAT(load_error(kTop + "workload:\n  bundled: collbench\n  args:\n    opp: allreduce\n"),
             Catch::EndsWith("(did you mean \"op\"?)"));
  CHECK(load_error(kTop + "workload:\n  bundled: collbench\n  args:\n    check: maybe\n") ==
        "x.yaml:6:12: \"workload.args.check\" must be true or false (a flag), got \"maybe\"");
  CHECK(load_error(kTop + "workload:\n  command: x\n  launcher: slurm\n") ==
        "x.yaml:5:13: unknown launcher \"slurm\" (available: local, srun, mpirun, torchrun-env)");
  CHECK(load_error(kTop + "workload:\n  command: x\n  launcher: locl\n") ==
        "x.yaml:5:13: unknown launcher \"locl\" (available: local, srun, mpirun, torchrun-env) (did you mean \"local\"?)");
  CHECK(load_error(kTop + "workload:\n  command: x\n  mpi: pmix\n") ==
        "x.yaml:5:3: \"workload.mpi\" needs launcher srun or torchrun-env (it becomes srun --mpi)");
  CHECK(load(kTop + "workload:\n  command: x\n  launcher: srun\n  mpi: pmix\n").workloads[0].mpi == "pmix");
  CHECK(load_error(kTop + "workload:\n  comand: x\n") ==
        "x.yaml:4:3: unknown key \"comand\" (did you mean \"command\"?)");
  CHECK(load_error(kTop + "workload:\n  command: \"  \"\n") == "x.yaml:4:12: \"workload.command\" must not be empty");
  CHECK(load_error(kTop + "workload:\n  command: [a, b]\n") ==
        "x.yaml:4:12: \"workload.command\" must be a command string, got a list");
  CHECK(load_error(kTop + "workload: run\n") == "x.yaml:3:11: \"workload\" must be a map (command or bundled, ...) or a list of them with \"when\", got \"run\"");
}

TEST_CASE("workload: a list of entries chosen per point by when") {
  const Experiment e = load("name: t\nmatrix: {bench: [coll, train]}\nderived: {is_coll: \"bench == 'coll'\"}\n"
                            "workload:\n"
                            "  - when: is_coll\n    bundled: collbench\n    launcher: mpirun\n"
                            "  - command: \"train {{bench}}\"\n");
  REQUIRE(e.workloads.size() == 2);
  CHECK(e.workloads[0].program == "collbench");
  CHECK(e.workloads[0].launcher == "mpirun");
  REQUIRE(e.workloads[0].when);
  CHECK(e.workloads[0].when->text() == "is_coll");
  CHECK(e.workloads[0].when->where().str() == "x.yaml:5:11");
  CHECK(e.workloads[0].where.str() == "x.yaml:5:5");
  CHECK(e.workloads[1].command == "train {{bench}}");
  CHECK_FALSE(e.workloads[1].when);
  CHECK(e.workloads_where.str() == "x.yaml:5:3");
}

TEST_CASE("workload: errors of a list") {
  const std::string top = "name: t\nmatrix: {n: [1, 2]}\nworkload:\n";  // entries from line 4
  CHECK(load_error(top + "  - command: a\n  - command: b\n") ==
        "x.yaml:5:5: \"workload[1]\" is never used: the entry before it has no \"when\" and takes every point "
        "(only the last entry may omit \"when\")");
  CHECK(load_error(top + "  - when: m == 1\n    command: a\n") ==
        "x.yaml:4:11: unknown name \"m\" (did you mean \"n\"?)");
  CHECK(load_error(top + "  - when: n ==\n    command: a\n") ==
        "x.yaml:4:15: expected an operand after \"==\"");
  CHECK(load_error(top + "  - when: n == 1\n    comand: a\n") ==
        "x.yaml:5:5: unknown key \"comand\" (did you mean \"command\"?)");
  CHECK(load_error(top + "  - when: n == 1\n") ==
        "x.yaml:4:5: \"workload[0]\" needs \"command\" (or \"bundled\" for a bundled program)");
  CHECK(load_error(top + "  - when: n == 1\n    command: \"\"\n") ==
        "x.yaml:5:14: \"workload[0].command\" must not be empty");
  CHECK(load_error(top + "  - run\n") == "x.yaml:4:5: \"workload[0]\" must be a map, got \"run\"");
  CHECK(load_error("name: t\nmatrix: {n: [1]}\nworkload: []\n") ==
        "x.yaml:3:11: \"workload\" must list at least one workload");
  CHECK(load_error("name: t\nmatrix: {n: [1]}\nworkload: {command: a, when: n == 1}\n") ==
        "x.yaml:3:24: unknown key \"when\" (valid keys: command, bundled, args, launcher, mpi)");
}

TEST_CASE("resources: counts are positive integers, or templates checked when the plan is built") {
  CHECK(load(kTop + kWorkload + "resources: {nodes: 2, ntasks-per-node: \"{{n}}\"}\n").resources.size() == 2);
  for (const char* bad : {"-1", "0", "two", "1.5", "02"})
    CHECK(load_error(kTop + kWorkload + "resources:\n  nodes: " + bad + "\n") ==
          std::string("x.yaml:5:10: \"resources.nodes\" must be a positive integer (or a template such as "
                      "\"{{nodes}}\"), got \"") + bad + "\"");
  CHECK_THAT(load_error(kTop + kWorkload + "resources:\n  cpus-per-task: 0\n"), Catch::Contains("\"resources.cpus-per-task\""));
}

TEST_CASE("resources: scalars kept as strings in file order") {
  const Experiment e =
      load(kTop + kWorkload + "resources:\n  partition: gpu\n  mem: 16G\n  exclusive: true\n  gres: gpu:2\n");
  CHECK(e.resources == std::vector<Resource>{
                           {"partition", "gpu", {}}, {"mem", "16G", {}}, {"exclusive", "true", {}}, {"gres", "gpu:2", {}}});
  CHECK(!e.timeout_s);
  CHECK(load_error(kTop + kWorkload + "resources:\n  gres: [gpu]\n") ==
        "x.yaml:5:9: \"resources.gres\" must be a single value (string or number), got a list");
  CHECK_THAT(load_error(kTop + kWorkload + "resources:\n  gpus: 2\n"),
             Catch::StartsWith("x.yaml:5:3: unknown key \"gpus\"") && Catch::Contains("gres"));
  CHECK(load_error(kTop + kWorkload + "resources: [a]\n") == "x.yaml:4:12: \"resources\" must be a map, got a list");
}

TEST_CASE("resources.time: Slurm formats become the per-run timeout") {
  CHECK(timeout_of("30") == 1800.0);  // plain number: minutes
  CHECK(timeout_of("\"45\"") == 2700.0);                                   // MM
  CHECK(timeout_of("\"10:30\"") == 630.0);                                 // MM:SS
  CHECK(timeout_of("\"90:00\"") == 5400.0);                                // leading minutes may exceed 59
  CHECK(timeout_of("\"1:02:03\"") == 3723.0);                              // HH:MM:SS
  CHECK(timeout_of("\"2-12\"") == 2 * 86400.0 + 12 * 3600);                // D-HH
  CHECK(timeout_of("\"1-00:30\"") == 86400.0 + 30 * 60);                   // D-HH:MM
  CHECK(timeout_of("\"1-02:03:04\"") == 86400.0 + 2 * 3600 + 3 * 60 + 4);  // D-HH:MM:SS
  CHECK(timeout_of("1:02:03") == 3723.0);                                  // unquoted works too
  CHECK(!timeout_of("UNLIMITED"));
  CHECK(!timeout_of("INFINITE"));
}

TEST_CASE("resources.time: errors") {
  const std::string formats = "minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED";
  CHECK(time_error("\"1:99\"") == "x.yaml:4:19: \"resources.time\": seconds must be < 60 in \"1:99\"");
  CHECK(time_error("\"1:60:00\"") == "x.yaml:4:19: \"resources.time\": minutes must be < 60 in \"1:60:00\"");
  CHECK(time_error("\"1-24\"") == "x.yaml:4:19: \"resources.time\": hours must be < 24 after days in \"1-24\"");
  CHECK(time_error("abc") == "x.yaml:4:19: \"resources.time\" must be a time limit (" + formats + "), got \"abc\"");
  CHECK(time_error("\"1:2:3:4\"") ==
        "x.yaml:4:19: \"resources.time\" must be a time limit (" + formats + "), got \"1:2:3:4\"");
  CHECK(time_error("\"x-1\"") == "x.yaml:4:19: \"resources.time\" must be a time limit (" + formats + "), got \"x-1\"");
  CHECK(time_error("0") ==
        "x.yaml:4:19: \"resources.time\" must be a positive time limit (use UNLIMITED for none), got \"0\"");
  CHECK(time_error("-5") == "x.yaml:4:19: \"resources.time\" must be a time limit (" + formats + "), got \"-5\"");
  // sbatch takes no fractions: 1.5 is refused here as it is by `escalate` and by sbatch.
  CHECK(time_error("1.5") == "x.yaml:4:19: \"resources.time\" must be a time limit (" + formats + "), got \"1.5\"");
}

TEST_CASE("metrics: regex and json rules") {
  const Experiment e = load(kTop + kWorkload +
                            "metrics:\n"
                            "  - {name: busbw, unit: GB/s, better: higher, regex: 'busbw (?<busbw>[0-9.]+)'}\n"
                            "  - {name: t.step, better: lower, regex: 'x (?P<value>\\d+)', source: stderr}\n"
                            "  - {name: loss, better: lower, json: loss, source: logs/out.jsonl}\n");
  REQUIRE(e.metrics.size() == 3);
  CHECK(e.metrics[0].name == "busbw");
  CHECK(e.metrics[0].unit == "GB/s");
  CHECK(e.metrics[0].where.str() == "x.yaml:5:5");
  CHECK(e.metrics[1].source == "stderr");
  CHECK(e.metrics[1].unit.empty());
  CHECK(e.metrics[2].kind == MetricRule::Kind::json);
  CHECK(e.metrics[2].pattern == "loss");
  CHECK(e.metrics[2].source == "logs/out.jsonl");
  CHECK(e.success.metrics == std::vector<std::string>{"busbw", "t.step", "loss"});  // default: all
}

TEST_CASE("metrics: errors") {
  CHECK(metric_error("{better: higher, regex: '(?<value>1)'}") == "x.yaml:5:5: \"metrics[0]\" is missing \"name\"");
  CHECK(metric_error("{name: a, regex: '(?<value>1)'}") ==
        "x.yaml:5:5: \"metrics[0]\" is missing \"better\" (higher or lower)");
  CHECK(metric_error("{name: a, better: up, json: a}") ==
        "x.yaml:5:23: \"metrics[0].better\" must be \"higher\" or \"lower\", got \"up\"");
  CHECK(metric_error("{name: 1a, better: lower, json: a}") ==
        "x.yaml:5:12: metric name \"1a\" must match [A-Za-z_][A-Za-z0-9_.]*");
  CHECK(metric_error("{name: a, better: lower}") ==
        "x.yaml:5:5: metric \"a\" needs exactly one of \"regex\" or \"json\"");
  CHECK(metric_error("{name: a, better: lower, regex: '(?<value>1)', json: a}") ==
        "x.yaml:5:52: metric \"a\" takes either \"regex\" or \"json\", not both");
  CHECK(metric_error("{name: bw, better: lower, regex: 'bw [0-9]+ \\(x\\) (?:y)'}") ==
        "x.yaml:5:39: metric \"bw\": the regex needs a capturing group around the number: (...), (?<value>...) or "
        "(?<bw>...)");
  CHECK(load(kTop + kWorkload + "metrics:\n  - {name: bw, better: lower, regex: 'bw ([0-9]+)'}\n").metrics.size() == 1);
  CHECK(metric_error("{name: a, better: lower, json: ''}") == "x.yaml:5:36: \"metrics[0].json\" must not be empty");
  CHECK(metric_error("{name: a, better: lower, json: a, source: /tmp/x}") ==
        "x.yaml:5:47: \"metrics[0].source\" must be stdout, stderr, both (stdout, then stderr) or a path inside the run directory (relative, "
        "without \"..\"), got \"/tmp/x\"");
  CHECK(metric_error("{name: a, better: lower, json: a, source: out/../../x}") ==
        "x.yaml:5:47: \"metrics[0].source\" must be stdout, stderr, both (stdout, then stderr) or a path inside the run directory (relative, "
        "without \"..\"), got \"out/../../x\"");
  CHECK(metric_error("{name: a, better: lower, json: a, units: s}") ==
        "x.yaml:5:39: unknown key \"units\" (did you mean \"unit\"?)");
  CHECK(metric_error("busbw") ==
        "x.yaml:5:5: \"metrics[0]\" must be a map {name: ..., better: ..., regex: ...}, got \"busbw\"");
  CHECK(load_error(kTop + kWorkload +
                   "metrics:\n  - {name: a, better: lower, json: a}\n  - {name: a, better: lower, json: b}\n") ==
        "x.yaml:6:5: duplicate metric \"a\" (first declared at line 5)");
}

TEST_CASE("success: exit code and required metrics") {
  const std::string metrics =
      "metrics:\n  - {name: bw, better: higher, json: bw}\n  - {name: lat, better: lower, json: lat}\n";
  const Experiment e = load(kTop + kWorkload + metrics + "success:\n  exit_code: 3\n  metrics: [lat]\n");
  CHECK(e.success.exit_code == 3);
  CHECK(e.success.metrics == std::vector<std::string>{"lat"});
  CHECK(e.success.where.str() == "x.yaml:8:3");
  CHECK(load(kTop + kWorkload + metrics + "success: {metrics: []}\n").success.metrics.empty());
  CHECK(load(kTop + kWorkload + metrics + "success: {exit_code: 1}\n").success.metrics ==
        std::vector<std::string>{"bw", "lat"});
}

TEST_CASE("success: errors") {
  const std::string metrics = "metrics:\n  - {name: bw, better: higher, json: bw}\n";  // lines 4-5; success 6
  CHECK(load_error(kTop + kWorkload + metrics + "success: {metrics: [bww]}\n") ==
        "x.yaml:6:21: unknown metric \"bww\" in success.metrics (did you mean \"bw\"?)");
  CHECK(load_error(kTop + kWorkload + "success: {metrics: [bw]}\n") ==
        "x.yaml:4:21: unknown metric \"bw\" in success.metrics (no metrics are declared)");
  CHECK(load_error(kTop + kWorkload + metrics + "success: {metrics: [bw, bw]}\n") ==
        "x.yaml:6:25: metric \"bw\" is listed twice in success.metrics");
  CHECK(load_error(kTop + kWorkload + metrics + "success: {exit_code: 256}\n") ==
        "x.yaml:6:22: \"success.exit_code\" must be an integer from 0 to 255, got \"256\"");
  CHECK(load_error(kTop + kWorkload + metrics + "success: {exitcode: 0}\n") ==
        "x.yaml:6:11: unknown key \"exitcode\" (did you mean \"exit_code\"?)");
}

TEST_CASE("retries: per failure class, by Slurm state name or stored class name") {
  const Experiment e = load(kTop + kWorkload + "retries: {NODE_FAIL: 2, PREEMPTED: 3, timeout: 0}\n");
  CHECK(e.retries == std::map<std::string, int, std::less<>>{{"node_fail", 2}, {"preempted", 3}, {"timeout", 0}});
  CHECK_THAT(load_error(kTop + kWorkload + "retries: {NODE_FIAL: 2}\n"),
             Catch::StartsWith("x.yaml:4:11: unknown failure class \"NODE_FIAL\" in \"retries\"") &&
                 Catch::EndsWith("(did you mean \"NODE_FAIL\"?)"));
  CHECK(load_error(kTop + kWorkload + "retries: {TIMEOUT: -1}\n") ==
        "x.yaml:4:20: \"retries.TIMEOUT\" must be a number of retries from 0 to 100, got \"-1\"");
}

TEST_CASE("resources: the sbatch keys, extra options and templated values") {
  const Experiment e = load(kTop + kWorkload +
                            "resources:\n  nodes: \"{{n}}\"\n  time: \"{{t}}\"\n  extra: [--signal=USR1@60, --requeue]\n");
  CHECK(e.resources == std::vector<Resource>{{"nodes", "{{n}}", {}}, {"time", "{{t}}", {}},
                                             {"extra", "--signal=USR1@60", {}}, {"extra", "--requeue", {}}});
  CHECK(e.resources[2].where.str() == "x.yaml:7:11");
  CHECK(!e.timeout_s);  // a templated time limit is known per point only (runner::CampaignPlan::timeout_s)
}

TEST_CASE("executor: a table of known executors") {
  CHECK(load(kTop + kWorkload + "executor: local\n").executor_where.str() == "x.yaml:4:11");
  CHECK(load(kTop + kWorkload + "executor: slurm\n").executor == "slurm");
  CHECK(load_error(kTop + kWorkload + "executor: slrum\n") ==
        "x.yaml:4:11: unknown executor \"slrum\" (available: local, slurm) (did you mean \"slurm\"?)");
  CHECK(load_error(kTop + kWorkload + "executor: [local]\n") ==
        "x.yaml:4:11: \"executor\" must be the name of an executor, got a list");
}
