// An experiment's `env` and `setup` on the local executor: literal per-point variables, a virtualenv
// that setup activates, a failing setup line, and the export lines of the rendered job script.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include <SQLiteCpp/Statement.h>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Experiment `name` whose variables differ per point (`who`) and hold characters a shell would
/// expand; the workload prints them as it sees them.
std::string env_experiment(const std::string& name) {
  return "name: " + name + R"(
matrix:
  who: [world, "big world's"]
env:
  GREETING: "hello {{who}}"
  ODD: "a b 'c' $HOME `x`"
  OMP_NUM_THREADS: 3
workload:
  command: |
    printf '%s|%s|%s\n' "$GREETING" "$ODD" "$OMP_NUM_THREADS"
)";
}

/// The first column of every row of `sql`, keyed by the second.
std::map<std::string, std::string> by_key(const Sandbox& box, const std::string& sql) {
  auto db = box.db();
  SQLite::Statement q(db, sql);
  std::map<std::string, std::string> out;
  while (q.executeStep()) out[q.getColumn(1).getString()] = q.getColumn(0).getString();
  return out;
}

/// `column` of each run (its latest attempt's provenance `key` when column is empty), keyed by the
/// value of the run's parameter `param`.
std::map<std::string, std::string> per_point(const Sandbox& box, const std::string& param, const std::string& column,
                                             const std::string& key = "") {
  const std::string value = key.empty() ? "r." + column
                                        : "(SELECT v.value FROM run_provenance v WHERE v.run_id = r.id AND "
                                          "v.attempt = r.attempt AND v.key = '" + key + "')";
  return by_key(box, "SELECT " + value + ", p.value FROM runs r JOIN point_params p ON p.campaign_id = r.campaign_id "
                     "AND p.point_id = r.point_id AND p.name = '" + param + "'");
}

/// Makes a virtualenv of Debian's python3 at `dir` (no pip: it is not needed and slow to install).
void make_venv(const std::string& dir) {
  INFO("needs /usr/bin/python3 with the venv module (Debian package python3-venv)");
  const auto made = shell("/usr/bin/python3 -m venv --without-pip '" + dir + "'");
  INFO(made.out << made.err);
  REQUIRE(made.exit_code == 0);
}

}  // namespace

TEST_CASE("env values are exported literally per point and recorded with each run") {
  Sandbox box;
  const auto run = box.sweep({"run", box.write("env.yaml", env_experiment("env")), "--label", "env"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto out = per_point(box, "who", "run_dir");
  REQUIRE(out.size() == 2);
  CHECK(read_file(out.at("world") + "/stdout") == "hello world|a b 'c' $HOME `x`|3\n");
  CHECK(read_file(out.at("big world's") + "/stdout") == "hello big world's|a b 'c' $HOME `x`|3\n");
  const auto env_set = per_point(box, "who", "", "job.env_set");
  CHECK(env_set.at("world") == "GREETING=hello world\nODD=a b 'c' $HOME `x`\nOMP_NUM_THREADS=3");
  CHECK(env_set.at("big world's") == "GREETING=hello big world's\nODD=a b 'c' $HOME `x`\nOMP_NUM_THREADS=3");
  // no setup lines: nothing ran before the workload, so no setup record
  CHECK(per_point(box, "who", "", "job.setup").at("world").empty());
  CHECK_FALSE(std::filesystem::exists(out.at("world") + "/setup.log"));
}

TEST_CASE("the job script exports each variable shell-quoted, before the workload") {
  Sandbox box;
  std::string spec = env_experiment("dry");
  spec.insert(spec.find("workload:"), "setup: [\"echo setting up {{who}}\"]\n");
  const auto dry = box.sweep({"run", box.write("dry.yaml", spec), "--label", "dry", "--dry-run"});
  INFO(dry.out << dry.err);
  REQUIRE(dry.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(box.path("results/sweep.db")));
  std::map<std::string, std::string> greetings;  // the GREETING export of each script
  for (const auto& e : std::filesystem::directory_iterator(box.path("results/dry/dry-run"))) {
    const std::string script = read_file((e.path() / "run.sh").string());
    INFO(e.path() << ":\n" << script);
    const auto odd = script.find("\nexport ODD='a b '\\''c'\\'' $HOME `x`'\n");
    const auto threads = script.find("\nexport OMP_NUM_THREADS=3\n");
    const auto greeting = script.find("\nexport GREETING=");
    const auto setup = script.find("{ echo setting up ");
    const auto workload = script.find("\nprintf '%s|%s|%s\\n' \"$GREETING\"");
    REQUIRE(odd != std::string::npos);
    REQUIRE(threads != std::string::npos);
    REQUIRE(greeting != std::string::npos);
    REQUIRE(setup != std::string::npos);
    REQUIRE(workload != std::string::npos);
    CHECK(setup < greeting);  // setup first, so the experiment's values win over what it sets
    CHECK(greeting < odd);    // in file order
    CHECK(odd < threads);
    CHECK(threads < workload);
    const std::string line = script.substr(greeting + 1, script.find('\n', greeting + 1) - greeting - 1);
    greetings[line] = script.substr(setup, script.find('\n', setup) - setup);
  }
  // values in env are rendered raw, then quoted once as a whole; in setup each value is quoted
  CHECK(greetings == std::map<std::string, std::string>{
                         {"export GREETING='hello big world'\\''s'", "{ echo setting up 'big world'\\''s'"},
                         {"export GREETING='hello world'", "{ echo setting up world"}});
}

TEST_CASE("setup activates a venv that changes which python3 the workload runs") {
  Sandbox box;
  const std::string venv = box.path("my envs/venv");  // a space: setup must quote the value
  make_venv(venv);
  const auto run = box.sweep({"run", box.write("venv.yaml", R"(name: venv
matrix:
  python: [venv, system]
  venv: [")" + venv + R"("]
setup:
  - "if [ {{python}} = venv ]; then source {{venv}}/bin/activate; fi"
workload:
  command: |
    python3 -c 'import sys; print("prefix", sys.prefix)'
)"), "--label", "venv"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto dirs = per_point(box, "python", "run_dir");
  const auto python = per_point(box, "python", "", "job.python");
  REQUIRE(dirs.size() == 2);
  CHECK(read_file(dirs.at("venv") + "/stdout") == "prefix " + venv + "\n");
  CHECK_THAT(python.at("venv"), Catch::StartsWith(venv + "/bin/python3 3."));
  // the same experiment without the activation runs some other python3
  CHECK_THAT(read_file(dirs.at("system") + "/stdout"), Catch::StartsWith("prefix /"));
  CHECK(read_file(dirs.at("system") + "/stdout") != "prefix " + venv + "\n");
  CHECK_THAT(python.at("system"), Catch::Contains("python3 3.") && !Catch::StartsWith(venv));
  CHECK(per_point(box, "python", "", "job.setup").at("venv") ==
        "if [ venv = venv ]; then source '" + venv + "'/bin/activate; fi");
}

TEST_CASE("a failing setup line fails the run as class setup and no workload runs") {
  Sandbox box;
  const std::string venv = box.path("venv");
  make_venv(venv);
  const auto run = box.sweep({"run", box.write("bad.yaml", R"(name: bad
matrix:
  venv: [")" + venv + R"(", /nonexistent/sweep-test-venv]
setup:
  - echo preparing
  - source {{venv}}/bin/activate
  - echo never
workload:
  command: echo workload ran
)"), "--label", "bad"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.out, Catch::Contains("2 runs planned, 1 succeeded, 1 failed"));
  const auto outcome = per_point(box, "venv", "state || ' ' || r.failure_class || ' ' || r.exit_code || ': ' || r.failure_reason");
  CHECK(outcome.at(venv) == "succeeded  0: ");
  // The reason carries setup.log's last lines (util/output_tail.h): the shell's own words.
  CHECK_THAT(outcome.at("/nonexistent/sweep-test-venv"),
             Catch::StartsWith("failed setup 1: setup line 2 failed with status 1: source /nonexistent/sweep-test-venv/bin/activate "
                               "(its output is in setup.log)\n--- last ") &&
                 Catch::Contains("lines of setup.log ---\npreparing\n") && Catch::Contains("No such file"));
  const std::string good = per_point(box, "venv", "run_dir").at(venv);
  const std::string bad = per_point(box, "venv", "run_dir").at("/nonexistent/sweep-test-venv");
  CHECK(read_file(good + "/stdout") == "workload ran\n");
  CHECK(read_file(good + "/setup.log") == "preparing\nnever\n");
  CHECK(read_file(bad + "/stdout").empty());
  const std::string log = read_file(bad + "/setup.log");
  CHECK_THAT(log, Catch::StartsWith("preparing\n") && Catch::Contains("No such file") && !Catch::Contains("never"));
  CHECK_THAT(read_file(bad + "/stderr"),
             Catch::Contains("sweep: setup line 2 failed with status 1: source /nonexistent/sweep-test-venv/bin/activate"));
  CHECK(read_file(bad + "/setup_failed") ==
        "format=1\nline=2\nstatus=1\ntext=source /nonexistent/sweep-test-venv/bin/activate\n");
  CHECK_THAT(read_file(bad + "/exit_status"), Catch::Contains("failure_class=setup"));
}

TEST_CASE("e16's transport axis gives each point its NCCL variables") {
  Sandbox box;
  const auto r = box.sweep({"run", e2e::repo_file("experiments/e16-allreduce-backends.yaml"), "--dry-run", "--label", "t",
                            "--executor", "slurm", "--set", "scale=ci", "--set", "backend=[nccl, gloo]", "--set",
                            "transport=[auto, socket, no-p2p]", "--set", "repetitions=1"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // nccl: 2 topologies x 3 transports; gloo reads no NCCL variable, so only its auto points remain.
  std::map<std::string, int> seen;
  for (const auto& entry : std::filesystem::directory_iterator(box.path("results/t/dry-run"))) {
    if (!std::filesystem::exists(entry.path() / "run.sh")) continue;  // the Slurm dry run's array-<k>/ directories
    const std::string script = e2e::read_file((entry.path() / "run.sh").string());
    const bool nccl = script.find("--backend nccl") != std::string::npos;
    const std::string ib = script.find("export NCCL_IB_DISABLE=1\n") != std::string::npos ? "ib-off" : "ib-on";
    const std::string p2p = script.find("export NCCL_P2P_DISABLE=1\n") != std::string::npos ? "p2p-off" : "p2p-on";
    ++seen[std::string(nccl ? "nccl " : "gloo ") + ib + " " + p2p];
  }
  CHECK(seen == std::map<std::string, int>{{"nccl ib-on p2p-on", 2}, {"nccl ib-off p2p-on", 2},
                                           {"nccl ib-on p2p-off", 2}, {"gloo ib-on p2p-on", 2}});
}
