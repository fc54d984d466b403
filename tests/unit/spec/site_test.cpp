// The site file: lookup order, validation with file:line:column, and precedence when it fills in an
// experiment (--set over the experiment over the site).
#include <fstream>

#include "load_helpers.h"
#include "spec/site.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::load;

namespace {

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.file(name)) << text;
  return dir.file(name);
}

std::string site_error(const std::string& text) {
  TempDir dir;
  const std::string path = write(dir, "site.yaml", text);
  try {
    load_site(path);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::invalid_experiment);
    const std::string what = e.what();
    return what.substr(what.find("site.yaml:"));
  }
  return "no error";
}

const std::string kSite =
    "format: 1\n"
    "name: lab\n"
    "executor: slurm\n"
    "resources: {partition: gpu, account: lab42, time: 30, extra: [--signal=USR1@60]}\n"
    "workload: {launcher: srun, mpi: pmix}\n"
    "env: {NCCL_SOCKET_IFNAME: ib0, OMP_NUM_THREADS: 8}\n"
    "setup: [\"module load cuda/12\"]\n"
    "interconnects: [{name: our-ib, bandwidth: 23.1, latency_us: 1.8}]\n"
    "results: /scratch/lab/results\n";

}  // namespace

TEST_CASE("a site file is read with every setting and its place") {
  TempDir dir;
  const Site s = load_site(write(dir, "site.yaml", kSite));
  CHECK(s.name == "lab");
  REQUIRE(s.executor);
  CHECK(s.executor->value == "slurm");
  CHECK(s.executor->where.str() == dir.file("site.yaml") + ":3:11");
  REQUIRE(s.resources.size() == 4);
  CHECK(s.timeout_s == 1800);
  CHECK(s.launcher->value == "srun");
  CHECK(s.mpi->value == "pmix");
  REQUIRE(s.env.size() == 2);
  CHECK(s.env[1].name == "OMP_NUM_THREADS");
  CHECK(s.env[1].value == "8");
  CHECK(s.setup.at(0).text == "module load cuda/12");
  CHECK(s.interconnects.at(0).name == "our-ib");
  CHECK(s.results->value == "/scratch/lab/results");
}

TEST_CASE("a site file's text loads as its file does, errors naming the path given") {
  TempDir dir;
  const Site from_file = load_site(write(dir, "site.yaml", kSite));
  const Site from_text = load_site_text(kSite, "lab/site.yaml");
  CHECK(from_text.path == "lab/site.yaml");
  CHECK(from_text.text == from_file.text);
  CHECK(from_text.executor->value == from_file.executor->value);
  CHECK(from_text.executor->where.str() == "lab/site.yaml:3:11");
  CHECK(from_text.resources.size() == from_file.resources.size());
  CHECK_THROWS_WITH(load_site_text("format: 1\npartiton: gpu\n", "lab/site.yaml"),
                    Catch::StartsWith("lab/site.yaml:2:1: unknown key \"partiton\""));
  CHECK_THROWS_WITH(load_site(dir.file("missing.yaml")), Catch::Contains("does not exist"));
}

TEST_CASE("mistakes in a site file name the file, line and column") {
  CHECK(site_error("format: 2\n") == "site.yaml:1:9: \"format\" must be 1 (the only version of the site format), got \"2\"");
  CHECK_THAT(site_error("format: 1\npartition: gpu\n"), Catch::StartsWith("site.yaml:2:1: unknown key \"partition\""));
  CHECK_THAT(site_error("resources: {partiton: gpu}\n"),
             Catch::StartsWith("site.yaml:1:13: unknown key \"partiton\"") && Catch::Contains("partition"));
  CHECK_THAT(site_error("workload: {launcher: slurm}\n"), Catch::StartsWith("site.yaml:1:22: unknown launcher \"slurm\""));
  CHECK_THAT(site_error("env: {1BAD: x}\n"), Catch::StartsWith("site.yaml:1:7: \"env.1BAD\" is not a variable name"));
  CHECK_THAT(site_error("env: {SWEEP_RUN_ID: x}\n"), Catch::Contains("set by sweep itself"));
  CHECK_THAT(site_error("setup: module load x\n"), Catch::StartsWith("site.yaml:1:8: \"setup\" must be a list of shell lines"));
  CHECK_THAT(site_error("interconnects: [{name: x}]\n"), Catch::Contains("needs \"name\" and \"bandwidth\""));
  CHECK_THAT(site_error("executor: pbs\n"), Catch::StartsWith("site.yaml:1:11: unknown executor \"pbs\""));
}

TEST_CASE("shared_group is true or false, with its place") {
  TempDir dir;
  const Site s = load_site(write(dir, "site.yaml", "format: 1\nshared_group: true\n"));
  REQUIRE(s.shared_group);
  CHECK(s.shared_group->value == "true");
  CHECK(s.shared_group->where.str() == dir.file("site.yaml") + ":2:15");
  CHECK_FALSE(load_site(write(dir, "none.yaml", "format: 1\n")).shared_group);
  CHECK_THAT(site_error("shared_group: yes\n"), Catch::StartsWith("site.yaml:1:15:") && Catch::Contains("true or false"));
}

TEST_CASE("the site file is looked up in the documented order") {
  TempDir dir;
  const std::string a = write(dir, "a.yaml", "name: a\n"), b = write(dir, "b.yaml", "name: b\n");
  std::filesystem::create_directories(dir.file("config/sweep"));
  write(dir, "config/sweep/site.yaml", "name: user\n");
  const std::string sys = write(dir, "etc-site.yaml", "name: system\n");
  SiteLookup l{a, b, dir.file("config"), sys};
  CHECK(find_site(l).name == "a");
  CHECK(find_site(l).found_by == "--site");
  l.explicit_path = "";
  CHECK(find_site(l).name == "b");
  l.sweep_site = "";
  CHECK(find_site(l).name == "user");
  l.config_home = dir.file("elsewhere");
  CHECK(find_site(l).name == "system");
  l.system_file = dir.file("absent.yaml");
  CHECK(find_site(l).path.empty());
  l.sweep_site = "none";
  l.system_file = sys;
  CHECK(find_site(l).path.empty());
  l.explicit_path = dir.file("missing.yaml");
  CHECK_THROWS_MATCHES(find_site(l), Error, Catch::Matchers::Predicate<Error>([](const Error& e) {
                         return e.kind() == ErrorKind::not_found;
                       }));
}

TEST_CASE("a site file's reports directory is read with its place, and an empty one is refused") {
  TempDir dir;
  const Site s = load_site(write(dir, "site.yaml", "format: 1\nresults: /r\nreports: /project/lab/reports\n"));
  REQUIRE(s.reports);
  CHECK(s.reports->value == "/project/lab/reports");
  CHECK(s.reports->where.str() == dir.file("site.yaml") + ":3:10");
  CHECK_FALSE(load_site(write(dir, "none.yaml", "format: 1\n")).reports);
  CHECK_THAT(site_error("format: 1\nreports: ''\n"), Catch::StartsWith("site.yaml:2:10:") && Catch::Contains("a directory for reports"));
  CHECK_THAT(site_error("reports: [a, b]\n"), Catch::StartsWith("site.yaml:1:10:") && Catch::Contains("a directory for reports"));
  CHECK_THAT(site_error("report: x\n"), Catch::StartsWith("site.yaml:1:1: unknown key \"report\"") && Catch::Contains("reports"));
}

TEST_CASE("no site file found: the note names every place sweep looked") {
  TempDir dir;
  const Site none = find_site(SiteLookup{"", "", dir.file("config"), dir.file("etc-site.yaml")});
  REQUIRE(none.path.empty());
  const std::string note = site_absence_note(none);
  CHECK_THAT(note, Catch::StartsWith("no site file was found (sweep looked at: --site (not given); $SWEEP_SITE (not set); " +
                                     dir.file("config") + "/sweep/site.yaml (no such file); " + dir.file("etc-site.yaml") +
                                     " (no such file))"));
  CHECK_THAT(note, Catch::Contains("cron"));
  CHECK(site_absence_note(find_site(SiteLookup{"", "", "", ""})).find("$XDG_CONFIG_HOME and $HOME not set") != std::string::npos);
  CHECK(site_absence_note(find_site(SiteLookup{"none", "", "", ""})) == "the site file is turned off (--site none)");
  CHECK(site_absence_note(find_site(SiteLookup{"", "none", "", ""})) == "the site file is turned off (SWEEP_SITE=none)");
  const std::string a = write(dir, "a.yaml", "name: a\n");
  CHECK(site_absence_note(find_site(SiteLookup{a, "", "", ""})).empty());
}

TEST_CASE("the experiment wins over the site, and --set over both") {
  TempDir dir;
  const Site site = load_site(write(dir, "site.yaml", kSite));
  Experiment e = load(
      "name: t\nmatrix: {n: [1]}\nworkload: {command: run}\n"
      "resources: {account: mine, nodes: 2, extra: [--comment=x]}\n"
      "env: {OMP_NUM_THREADS: 2, MINE: yes}\nsetup: [\"source venv/bin/activate\"]\n");
  CHECK(e.site.empty());
  apply_site(site, e);
  CHECK_THAT(e.site, Catch::StartsWith(dir.file("site.yaml") + " sha256:"));
  CHECK(e.site.size() == dir.file("site.yaml").size() + 8 + 64);
  CHECK(e.executor == "slurm");
  std::vector<std::string> resources;
  for (const Resource& r : e.resources) resources.push_back(r.key + "=" + r.value);
  // account is optional: the site's stays before the experiment's, which wins unless it renders empty.
  CHECK(resources == std::vector<std::string>{"partition=gpu", "account=lab42", "time=30", "extra=--signal=USR1@60",
                                              "account=mine", "nodes=2", "extra=--comment=x"});
  CHECK(e.timeout_s == 1800);
  CHECK(e.workloads[0].launcher == "srun");
  CHECK(e.workloads[0].mpi == "pmix");
  std::vector<std::string> env;
  for (const EnvVar& v : e.env) env.push_back(v.name + "=" + v.value);
  CHECK(env == std::vector<std::string>{"NCCL_SOCKET_IFNAME=ib0", "OMP_NUM_THREADS=2", "MINE=yes"});
  REQUIRE(e.setup.size() == 2);
  CHECK(e.setup[0].text == "module load cuda/12");
  CHECK(e.setup[1].text == "source venv/bin/activate");

  const auto settings = effective_settings(site, &e);
  const auto origin = [&](const std::string& name) {
    for (const Setting& s : settings)
      if (s.name == name) return s.origin;
    return std::string("absent");
  };
  CHECK(origin("executor") == "site " + dir.file("site.yaml") + ":3:11");
  CHECK(origin("resources.account") == "experiment x.yaml:4:22");
  CHECK(std::count_if(settings.begin(), settings.end(), [&](const Setting& s) {
          return s.name == "resources.account" && s.value == "lab42" &&
                 s.origin == "site " + dir.file("site.yaml") + ":4:38 (where the experiment's renders empty)";
        }) == 1);
  CHECK(origin("env.OMP_NUM_THREADS") == "experiment x.yaml:5:24");
  CHECK_THAT(origin("env.NCCL_SOCKET_IFNAME"), Catch::StartsWith("site "));
  CHECK_THAT(origin("workload.launcher"), Catch::StartsWith("site "));
  CHECK(origin("results") == "site " + dir.file("site.yaml") + ":9:10");

  // --set executor=local, and an experiment that names its own launcher, keep theirs.
  Experiment local = load("name: t\nmatrix: {n: [1]}\nworkload: {command: run}\n", {{"executor", "local"}});
  apply_site(site, local);
  CHECK(local.executor == "local");
  CHECK(local.workloads[0].launcher == "local");  // the site's launcher is for Slurm runs only
  CHECK(effective_settings(site, &local)[0].origin == "--set executor=local");
  Experiment own = load("name: t\nmatrix: {n: [1]}\nworkload: {command: run, launcher: mpirun}\n");
  apply_site(site, own);
  CHECK(own.workloads[0].launcher == "mpirun");
  CHECK(own.workloads[0].mpi.empty());
}

TEST_CASE("env and setup of an experiment are read and checked") {
  const Experiment e = load(spec_test::kHead + "env: {NCCL_IB_DISABLE: \"{{batch}}\", X: 1}\nsetup:\n  - module load a\n");
  REQUIRE(e.env.size() == 2);
  CHECK(e.env[0].value == "{{batch}}");
  CHECK(e.env[0].where.str() == "x.yaml:6:25");
  CHECK(e.setup.at(0).text == "module load a");
  CHECK(spec_test::load_error(spec_test::kHead + "env: [a]\n") == "x.yaml:6:6: \"env\" must be a map, got a list");
  CHECK(spec_test::load_error(spec_test::kHead + "setup: [\"\"]\n") == "x.yaml:6:9: \"setup[0]\" must not be empty");
  CHECK(spec_test::load_error(spec_test::kHead + "env: {A-B: 1}\n") ==
        "x.yaml:6:7: \"env.A-B\" is not a variable name: use letters, digits and _, not starting with a digit");
}

TEST_CASE("a site file's thresholds: a number or an expression per metric, names checked") {
  TempDir dir;
  const Site site =
      load_site(write(dir, "site.yaml", "format: 1\nthresholds: {busbw: 0.02, time: \"size > 1024 ? 0.02 : 0.1\"}\n"));
  REQUIRE(site.thresholds.size() == 2);
  CHECK(site.thresholds[0].value == 0.02);
  CHECK(site.thresholds[1].expr);
  CHECK_THAT(site_error("format: 1\nthresholds: {\"bus bw\": 0.02}\n"), Catch::Contains("must be a metric name"));
}
