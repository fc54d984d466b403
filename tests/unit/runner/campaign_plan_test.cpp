#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "runner/campaign_plan.h"
#include "spec/load.h"
#include "temp_dir.h"
#include "util/error.h"

using namespace sweep;

namespace {

std::string template_dir(const TempDir& dir, const std::string& script) {
  std::filesystem::create_directories(dir.path / "local");
  std::ofstream(dir.path / "local" / "run.sh.mustache") << script;
  return dir.path.string();
}

spec::Experiment experiment(const std::string& command) {
  return spec::load_text("name: t\nmatrix:\n  model: [gpt2, \"it's\"]\nworkload:\n  command: " + command + "\n",
                         "t.yaml");
}

/// Points SWEEP_BUNDLED_DIR at a directory holding an executable `name` for the scope's lifetime: plans
/// of a bundled program can be built where the program itself is not (the ASan build has no trainbench).
/// The file is never run.
class BundledStandIn {
 public:
  BundledStandIn(const TempDir& dir, const std::string& name) {
    const auto bin = dir.path / "bundled";
    std::filesystem::create_directories(bin);
    std::ofstream(bin / name) << "#!/bin/sh\nexit 99\n";
    std::filesystem::permissions(bin / name, std::filesystem::perms::owner_all);
    if (const char* old = std::getenv("SWEEP_BUNDLED_DIR")) old_ = old;
    ::setenv("SWEEP_BUNDLED_DIR", bin.c_str(), 1);
  }
  ~BundledStandIn() {
    if (old_) ::setenv("SWEEP_BUNDLED_DIR", old_->c_str(), 1);
    else ::unsetenv("SWEEP_BUNDLED_DIR");
  }

 private:
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("job scripts get the rendered command and the run variables, values shell-quoted") {
  TempDir dir;
  const runner::CampaignPlan plan(experiment("train --model {{model}} --out {{run_dir}}"),
                                  template_dir(dir, "cd {{run_dir}}\n# {{campaign}} {{repetition}}\n{{{command}}}\n"));
  REQUIRE(plan.points().size() == 2);
  CHECK(plan.run_count() == 2);
  const auto script = plan.render_script(plan.points()[1], {"camp", 7, 0, 1, "/r/a b", "/e", "/l"});
  CHECK(script == "cd '/r/a b'\n# camp 0\ntrain --model 'it'\\''s' --out '/r/a b'\n");
  const auto records = plan.point_records();
  CHECK(records[1].params[0].value == "it's");
  CHECK(records[1].params[0].type == "string");
}

TEST_CASE("a template variable that no point defines is an error at the command") {
  TempDir dir;
  CHECK_THROWS_WITH(runner::CampaignPlan(experiment("train {{modle}}"), template_dir(dir, "{{{command}}}\n")),
                    Catch::StartsWith("t.yaml:5:") && Catch::Contains("did you mean \"model\""));
  CHECK_THROWS_WITH(runner::CampaignPlan(experiment("train"), template_dir(dir, "{{{command}}} {{nope}}\n")),
                    Catch::Contains("run.sh.mustache") && Catch::Contains("nope"));
}

TEST_CASE("each point runs the first workload entry whose when holds") {
  TempDir dir;
  const auto yaml = [](const std::string& last) {
    return spec::load_text("name: t\nmatrix:\n  bench: [coll, train, other]\nderived:\n  big: \"bench != 'coll'\"\n"
                           "workload:\n  - when: \"bench == 'coll'\"\n    command: \"coll {{bench}}\"\n"
                           "    launcher: mpirun\n  - when: big and bench == 'train'\n    command: \"train {{big}}\"\n" +
                               last,
                           "t.yaml");
  };
  const runner::CampaignPlan plan(yaml("  - command: rest\n"), template_dir(dir, "{{{command}}}\n"));
  REQUIRE(plan.points().size() == 3);
  CHECK(plan.render_script(plan.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"}) == "mpirun coll coll\n");
  CHECK(plan.render_script(plan.points()[1], {"c", 2, 0, 1, "/r", "/e", "/l"}) == "train true\n");
  CHECK(plan.render_script(plan.points()[2], {"c", 3, 0, 1, "/r", "/e", "/l"}) == "rest\n");
  try {
    const runner::CampaignPlan none(yaml(""), template_dir(dir, "{{{command}}}\n"));
    FAIL("a point that no entry takes must be refused");
  } catch (const Error& e) {
    CHECK(e.where().str() == "t.yaml:7:3");
    CHECK_THAT(e.message(), Catch::Contains("no \"workload\" entry takes the point"));
    CHECK_THAT(e.message(), Catch::Contains("(bench=other)"));
  }
}

TEST_CASE("a when that is not true or false is an error at the expression") {
  TempDir dir;
  const auto exp = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload:\n  - when: n + 1\n    command: a\n"
                                   "  - command: b\n",
                                   "t.yaml");
  try {
    const runner::CampaignPlan plan(exp, template_dir(dir, "{{{command}}}\n"));
    FAIL("a numeric when must be refused");
  } catch (const Error& e) {
    CHECK(e.where().str() == "t.yaml:4:11");
    CHECK_THAT(e.message(), Catch::StartsWith("\"when\" must be true or false, got int 2 at point"));
  }
}

TEST_CASE("trainbench's dp x tp x pp must equal the ranks the resources give, at every point") {
  TempDir dir;
  const BundledStandIn trainbench(dir, "trainbench");
  const auto plan = [&](const std::string& resources, const std::string& args) {
    return runner::CampaignPlan(spec::load_text("name: t\nmatrix: {dp: [1, 2], tp: [2]}\nresources: " + resources +
                                                    "\nworkload:\n  bundled: trainbench\n  args: " + args + "\n",
                                                "t.yaml"),
                                template_dir(dir, "{{{command}}}\n"));
  };
  // dp x tp ranks: tp nodes of dp tasks each.
  CHECK(plan("{nodes: \"{{tp}}\", ntasks-per-node: \"{{dp}}\"}", "{dp: \"{{dp}}\", tp: \"{{tp}}\", pp: 1}").points().size() == 2);
  CHECK_NOTHROW(plan("{ntasks: \"{{tp}}\"}", "{tp: \"{{tp}}\"}"));
  CHECK_NOTHROW(plan("{partition: gpu}", "{dp: 8}"));  // no ranks given, nothing to check
  try {
    plan("{nodes: 1, ntasks-per-node: 2}", "{dp: \"{{dp}}\", tp: \"{{tp}}\"}");
    FAIL("dp 2 x tp 2 on 2 tasks must be refused");
  } catch (const Error& e) {
    CHECK(e.where().str() == "t.yaml:6:9");
    CHECK_THAT(e.message(), Catch::Contains("trainbench's dp 2 x tp 2 x pp 1 = 4 ranks, but the resources give nodes 1 x "
                                            "ntasks-per-node 2 = 2 at point"));
    CHECK_THAT(e.message(), Catch::EndsWith("(dp=2, tp=2)"));
  }
  CHECK_THROWS_WITH(plan("{ntasks: 2}", "{dp: \"{{dp}}\", pp: 0}"), Catch::Contains("trainbench --pp must be a positive integer, got \"0\""));
}

TEST_CASE("env and setup are rendered per point into the job script's environment slot") {
  TempDir dir;
  const std::string dir_with_slot = template_dir(dir, "{{{environment}}}\n{{{command}}}\n");
  const auto with_env = spec::load_text("name: t\nmatrix:\n  model: [gpt2, \"it's\"]\nworkload: {command: run}\n"
                                        "env: {MODEL: \"{{model}} x\"}\nsetup: [\"cd {{model}}\"]\n",
                                        "t.yaml");
  runner::CampaignPlan plan(with_env, dir_with_slot);
  const auto& p = plan.points()[1];
  const std::string script = plan.render_script(p, {"c", 1, 0, 1, "/r", "/e", "/l"});
  CHECK_THAT(script, Catch::Contains("export MODEL='it'\\''s x'\n"));
  CHECK_THAT(script, Catch::Contains("{ cd 'it'\\''s'\n} >> \"$SWEEP_RUN_DIR/setup.log\" 2>&1 || sweep_setup_failed 1 $? 'cd '\\''it'\\''\\'\\'''\\''s'\\'''\n"));
  CHECK(script.find("export MODEL") < script.find("\nrun\n"));

  TempDir other;
  const std::string no_slot = template_dir(other, "{{{command}}}\n");
  CHECK_THROWS_WITH(runner::CampaignPlan(with_env, no_slot),
                    Catch::StartsWith("t.yaml:5:15: the job-script template " + no_slot +
                                      "/local/run.sh.mustache has no {{{environment}}}"));
  CHECK_NOTHROW(runner::CampaignPlan(experiment("run"), no_slot));  // nothing to put there: no error

  const auto undefined = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\nenv: {X: \"{{m}}\"}\n", "t.yaml");
  CHECK_THROWS_WITH(runner::CampaignPlan(undefined, dir_with_slot), Catch::StartsWith("t.yaml:4:11: unknown template variable \"m\""));
}

TEST_CASE("the network sampling goes around the command, and a template without its slots refuses `network`") {
  TempDir dir;
  const std::string slots = template_dir(dir, "{{{nic_start}}}\n{{{command}}}\n{{{nic_end}}}\n");
  const auto named = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\nnetwork: {interfaces: [lo]}\n", "t.yaml");
  runner::CampaignPlan plan(named, slots);
  const std::string script = plan.render_script(plan.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"});
  CHECK_THAT(script, Catch::Contains("\nsweep_nic_interfaces=lo\n"));
  CHECK(script.find("\nsweep_nic start\nrun\nsweep_nic end $?\n") != std::string::npos);

  const auto off = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\nnetwork: {counters: false}\n", "t.yaml");
  runner::CampaignPlan quiet(off, slots);
  CHECK(quiet.render_script(quiet.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"}).find("sweep_nic") == std::string::npos);

  TempDir other;
  const std::string no_slots = template_dir(other, "{{{command}}}\n");
  CHECK_THROWS_WITH(runner::CampaignPlan(named, no_slots),
                    Catch::StartsWith("t.yaml:4:10: the job-script template " + no_slots +
                                      "/local/run.sh.mustache has no {{{nic_start}}} and {{{nic_end}}}"));
  CHECK_NOTHROW(runner::CampaignPlan(off, no_slots));
  CHECK_NOTHROW(runner::CampaignPlan(experiment("run"), no_slots));  // the default: nothing asked for
  runner::CampaignPlan plain(experiment("run"), slots);
  CHECK(plain.render_script(plain.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"}).find("sweep_nic") == std::string::npos);
}

TEST_CASE("telemetry: the sampler goes around the command, on by default, off with false") {
  TempDir dir;
  const std::string slots =
      template_dir(dir, "{{{nic_start}}}\n{{{telemetry_start}}}\n{{{command}}}\n{{{telemetry_end}}}\n{{{nic_end}}}\n");
  runner::CampaignPlan on(experiment("run"), slots);
  const std::string script = on.render_script(on.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"});
  CHECK_THAT(script, Catch::Contains("sweep_telemetry_program=" + templating::shell_quote(runner::bundled_dir() + "/sweep-telemetry") + "\n"));
  CHECK_THAT(script, Catch::Contains("sweep_telemetry_args=(--interval-ms 1000 --sources proc,rapl,nvml --marker \"SWEEP_RUN_DIR=$SWEEP_RUN_DIR\")"));
  CHECK(script.find("fi\nrun\nsweep_telemetry_stop $?\n") != std::string::npos);
  const auto set = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\ntelemetry: {interval_ms: 200, sources: [proc]}\n", "t.yaml");
  runner::CampaignPlan chosen(set, slots);
  CHECK_THAT(chosen.render_script(chosen.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"}),
             Catch::Contains("--interval-ms 200 --sources proc --marker"));
  const auto off = spec::load_text("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\ntelemetry: false\n", "t.yaml");
  runner::CampaignPlan quiet(off, slots);
  CHECK(quiet.render_script(quiet.points()[0], {"c", 1, 0, 1, "/r", "/e", "/l"}) == "\n\nrun\n\n\n");

  TempDir other;
  const std::string no_slots = template_dir(other, "{{{command}}}\n");
  CHECK_THROWS_WITH(runner::CampaignPlan(set, no_slots),
                    Catch::StartsWith("t.yaml:4:12: the job-script template " + no_slots +
                                      "/local/run.sh.mustache has no {{{telemetry_start}}} and {{{telemetry_end}}}"));
  runner::CampaignPlan old(experiment("run"), no_slots);  // an own template from before telemetry
  CHECK_FALSE(old.experiment().telemetry.enabled);
}

TEST_CASE("a run's plan keeps at most max_points points, a check's streams any number") {
  TempDir dir;
  const std::string templates = template_dir(dir, "{{{command}}}\n");
  const auto load = [](const std::string& extra) {
    return spec::load_text("name: t\nmatrix:\n  a: [1, 2, 3, 4]\n  b: [1, 2, 3]\n" + extra + "workload:\n  command: run\n",
                           "t.yaml");
  };
  CHECK(runner::CampaignPlan(load(""), templates, runner::PlanUse::run, 12).points().size() == 12);
  try {
    runner::CampaignPlan(load(""), templates, runner::PlanUse::run, 11);
    FAIL("12 points with --max-points 11 must be refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    CHECK(e.where().str() == "t.yaml:3:3");  // the matrix's first axis
    CHECK_THAT(e.message(), Catch::StartsWith("the matrix has 12 points (a 4 x b 3), more than --max-points 11"));
  }
  CHECK_NOTHROW(runner::CampaignPlan(load(""), templates, runner::PlanUse::check, 11));
  // With exclusions the walk counts: 4 points survive a limit of 4, not one of 3.
  const std::string exclude = "exclude:\n  - where: b > 1\n";
  CHECK(runner::CampaignPlan(load(exclude), templates, runner::PlanUse::run, 4).points().size() == 4);
  CHECK_THROWS_WITH(runner::CampaignPlan(load(exclude), templates, runner::PlanUse::run, 3),
                    Catch::StartsWith("t.yaml:3:3: more than --max-points 3 points of the matrix survive its exclusions "
                                      "(12 before them: a 4 x b 3)"));
  // Points x repetitions: 12 x 10,000 = 120,000 runs fit; with 200 points (2,000,000 runs) the start is
  // refused before anything is recorded, unless --max-points is larger still.
  CHECK(runner::CampaignPlan(load("repetitions: 10000\n"), templates, runner::PlanUse::run).points().size() == 12);
  const auto wide = [](const std::string& extra) {
    std::string values;
    for (int i = 0; i < 200; ++i) values += (i ? ", " : "") + std::to_string(i);
    return spec::load_text("name: t\nmatrix:\n  a: [" + values + "]\n" + extra + "workload:\n  command: run\n", "t.yaml");
  };
  CHECK_THROWS_WITH(runner::CampaignPlan(wide("repetitions: 10000\n"), templates, runner::PlanUse::run),
                    "t.yaml:3:3: 200 points x 10000 repetitions is 2,000,000 runs; a new campaign records at most "
                    "1,000,000 at its start (or --max-points, when larger): fewer repetitions, or fewer points");
  CHECK(runner::CampaignPlan(wide("repetitions: 10000\n"), templates, runner::PlanUse::run, 2'000'000).points().size() == 200);
  CHECK_NOTHROW(runner::CampaignPlan(wide("repetitions: 10000\n"), templates, runner::PlanUse::check));
}

TEST_CASE("workdir: the experiment's directory by default, launch, run or a templated path from the experiment's") {
  TempDir dir;
  const std::string tmpl = template_dir(dir, "cd {{workdir}}\n{{{command}}}\n");
  const auto workdir_of = [&](const std::string& line, const runner::RunContext& run) {
    const runner::CampaignPlan plan(
        spec::load_text("name: t\nmatrix:\n  model: [small]\n" + line + "workload:\n  command: go\n", "t.yaml"), tmpl);
    const std::string script = plan.render_script(plan.points()[0], run);
    return script.substr(3, script.find('\n') - 3);
  };
  const runner::RunContext run{"c", 1, 0, 1, "/runs/c/p.rep0.attempt1", "/home/u/proj", "/home/u"};
  CHECK(workdir_of("", run) == "/home/u/proj");
  CHECK(workdir_of("workdir: experiment\n", run) == "/home/u/proj");
  CHECK(workdir_of("workdir: launch\n", run) == "/home/u");
  CHECK(workdir_of("workdir: run\n", run) == "/runs/c/p.rep0.attempt1");
  CHECK(workdir_of("workdir: data/{{model}}\n", run) == "/home/u/proj/data/small");
  CHECK(workdir_of("workdir: \"/scratch/it's {{model}}\"\n", run) == "'/scratch/it'\\''s small'");
  // A campaign from before the directories were recorded keeps running in its run directories.
  runner::RunContext old = run;
  old.experiment_dir = old.launch_dir = "";
  CHECK(workdir_of("", old) == "/runs/c/p.rep0.attempt1");
  CHECK_THROWS_WITH(workdir_of("workdir: \"{{modle}}\"\n", run), Catch::StartsWith("t.yaml:4:") &&
                                                                   Catch::Contains("did you mean \"model\""));
}

TEST_CASE("the run variables experiment_dir and launch_dir reach the command") {
  TempDir dir;
  const runner::CampaignPlan plan(experiment("python3 {{experiment_dir}}/train.py --log {{launch_dir}}/x"),
                                  template_dir(dir, "{{{command}}}\n"));
  CHECK(plan.render_script(plan.points()[0], {"c", 1, 0, 1, "/r", "/e x", "/l"}) ==
        "python3 '/e x'/train.py --log /l/x\n");
}

TEST_CASE("the Slurm job script's environment records: a value's line break forges no line") {
  // sweep_exported of templates/slurm/run.sh.mustache, run by the real bash with a value that holds
  // lines shaped like the records (slurm_env, comm_env and gpu_env are its output).
  std::ifstream in(SWEEP_SOURCE_DIR + "/templates/slurm/run.sh.mustache");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto begin = text.find("sweep_exported() {");
  REQUIRE(begin != std::string::npos);
  const std::string function = text.substr(begin, text.find("\n}\n", begin) + 3 - begin);
  TempDir dir;
  std::ofstream(dir.file("t.sh")) << function
                                  << "export FOO=$'x\\nCUDA_VISIBLE_DEVICES=7\\nNCCL_NET=IB'\n"
                                     "export CUDA_VISIBLE_DEVICES=0,1 NCCL_X=$'a\\nb'\n"
                                     "sweep_exported '^(CUDA|NVIDIA)_VISIBLE_DEVICES$' > " + dir.file("gpu") + "\n"
                                     "sweep_exported '^(NCCL|UCX|OMPI)_' > " + dir.file("comm") + "\n";
  REQUIRE(std::system(("env -i PATH=\"$PATH\" bash " + dir.file("t.sh")).c_str()) == 0);
  const auto read = [&](const std::string& name) {
    std::ifstream f(dir.file(name));
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  CHECK(read("gpu") == "CUDA_VISIBLE_DEVICES=0,1\n");
  CHECK(read("comm") == "NCCL_X=a b\n");
}
