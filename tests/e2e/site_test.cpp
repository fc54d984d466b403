// The site file through the real binary: a run takes the site's env, setup and results location and
// records the site; `sweep site` shows each effective setting and its origin; a broken site file is
// refused with its place before anything is written; `sweep model` lists the site's interconnects.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "e2e/harness.h"

using e2e::Sandbox;

namespace {

/// Writes the sandbox's site file (results under site-results/) and returns its path.
std::string write_site(const Sandbox& box) {
  return box.write("site.yaml", "format: 1\n"
                                "name: test-lab\n"
                                "env: {OMP_NUM_THREADS: 3, WHO: site}\n"
                                "setup: [\"export FROM_SITE_SETUP=yes\"]\n"
                                "resources: {partition: gpu, time: 5}\n"
                                "workload: {launcher: srun}\n"
                                "interconnects: [{name: test-ib, label: our test link, bandwidth: 12.5, latency_us: 2}]\n"
                                "results: " + box.path("site-results") + "\n");
}

const std::string kExperiment =
    "name: sited\n"
    "matrix: {n: [1, 2]}\n"
    "env: {WHO: experiment}\n"
    "setup: [\"export FROM_EXPERIMENT_SETUP=$FROM_SITE_SETUP\"]\n"
    "workload: {command: 'echo \"n={{n}} omp=$OMP_NUM_THREADS who=$WHO site_setup=$FROM_SITE_SETUP "
    "exp_setup=$FROM_EXPERIMENT_SETUP\"'}\n";

}  // namespace

TEST_CASE("a run takes the site's env, setup and results location, the experiment winning") {
  Sandbox box;
  const std::string site = write_site(box);
  box.write("exp.yaml", kExperiment);
  const auto r = box.sweep({"run", "exp.yaml", "--label", "s", "--site", site});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
  REQUIRE(std::filesystem::exists(box.path("site-results/sweep.db")));
  // The local run keeps the local launcher: the site's srun is for Slurm runs only.
  for (const char* n : {"1", "2"}) {
    const auto out = e2e::shell("cat " + box.path("site-results/s") + "/*.rep0.attempt1/stdout | grep '^n=" + n + " '");
    CHECK(out.out == std::string("n=") + n + " omp=3 who=experiment site_setup=yes exp_setup=yes\n");
  }
  SQLite::Database db(box.path("site-results/sweep.db"), SQLite::OPEN_READONLY);
  SQLite::Statement q(db, "SELECT value FROM run_provenance WHERE key = 'job.site'");
  int rows = 0;
  while (q.executeStep()) {
    ++rows;
    CHECK_THAT(q.getColumn(0).getString(), Catch::StartsWith(site + " sha256:"));
    CHECK(q.getColumn(0).getString().size() == site.size() + 8 + 64);
  }
  CHECK(rows == 2);
  const auto ls = box.sweep({"ls", "--site", site});
  CHECK_THAT(ls.out, Catch::Contains("s "));  // found in the site's results without --results
}

TEST_CASE("sweep site shows each effective setting with where it came from") {
  Sandbox box;
  const std::string site = write_site(box);
  box.write("exp.yaml", kExperiment);
  const auto alone = box.sweep({"site", "--site", site});
  INFO(alone.out << alone.err);
  REQUIRE(alone.exit_code == 0);
  CHECK_THAT(alone.out, Catch::StartsWith("site file: " + site + ", test-lab (chosen by --site)\n"));
  CHECK_THAT(alone.out, Catch::Contains("interconnects.test-ib") && Catch::Contains("12.5 GB/s, 2 us (our test link)"));

  const auto r = box.sweep({"site", "exp.yaml", "--site", site, "--set", "executor=slurm"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto line_of = [](const std::string& out, const std::string& name) {
    const auto at = out.find("\n" + name + " ");
    if (at == std::string::npos) return std::string("absent");
    const auto end = out.find('\n', at + 1);
    std::string l = out.substr(at + 1, end - at - 1);
    while (l.find("  ") != std::string::npos) l.replace(l.find("  "), 2, " ");
    return l;
  };
  const auto line = [&](const std::string& name) { return line_of(r.out, name); };
  CHECK(line("executor") == "executor slurm --set executor=slurm");
  CHECK(line("resources.partition") == "resources.partition gpu site " + site + ":5:24");
  CHECK(line("workload.launcher") == "workload.launcher srun site " + site + ":6:22");
  CHECK(line("env.OMP_NUM_THREADS") == "env.OMP_NUM_THREADS 3 site " + site + ":3:24");
  CHECK(line("env.WHO") == "env.WHO experiment experiment exp.yaml:3:12");
  CHECK(line("setup[1]") == "setup[1] export FROM_SITE_SETUP=yes site " + site + ":4:10");
  CHECK(line("setup[2]") == "setup[2] export FROM_EXPERIMENT_SETUP=$FROM_SITE_SETUP experiment exp.yaml:4:10");
  CHECK(line("results") == "results " + box.path("site-results") + " site " + site + ":8:10");

  // The same experiment on the local executor keeps its default launcher.
  const auto local = box.sweep({"site", "exp.yaml", "--site", site});
  CHECK(line_of(local.out, "workload.launcher") == "workload.launcher local default");
  CHECK(line_of(local.out, "executor") == "executor local default");
}

TEST_CASE("a broken site file is refused with its place, and nothing is written") {
  Sandbox box;
  const std::string site = box.write("site.yaml", "format: 1\nenv: {NCCL_IB_DISABLE: [1]}\n");
  box.write("exp.yaml", kExperiment);
  const auto r = box.sweep({"run", "exp.yaml", "--site", site});
  CHECK(r.exit_code == 3);
  CHECK(r.err == "sweep: " + site + ":2:24: \"env.NCCL_IB_DISABLE\" must be a single value (string or number), got a list\n");
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
  const auto missing = box.sweep({"site", "--site", box.path("nope.yaml")});
  CHECK(missing.exit_code == 4);
  CHECK_THAT(missing.err, Catch::Contains("site file \"" + box.path("nope.yaml") + "\" does not exist"));
}

TEST_CASE("an experiment or site file that is a FIFO or a device is refused at once, never read without end") {
  Sandbox box;
  box.write("exp.yaml", kExperiment);
  const std::string fifo = box.path("fifo.yaml");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // nobody writes it: a read would wait forever
  const std::string expected = " (a regular file of at most 16 MiB is expected)\n";
  for (const std::string& file : {fifo, std::string("/dev/zero")}) {
    INFO(file);
    const auto plan = box.sweep({"plan", file});
    CHECK(plan.exit_code == 6);
    CHECK(plan.err == "sweep: cannot read experiment file \"" + file + "\": not a regular file" + expected);
    const auto site = box.sweep({"plan", "exp.yaml", "--site", file});
    CHECK(site.exit_code == 6);
    CHECK(site.err == "sweep: cannot read site file \"" + file + "\": not a regular file" + expected);
  }
  CHECK_FALSE(std::filesystem::exists(box.path("results")));
}

TEST_CASE("sweep model lists the site's interconnects next to the built-in ones") {
  Sandbox box;
  const std::string site = write_site(box);
  const auto r = box.sweep({"model", "--list-interconnects", "--site", site});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("test-ib") && Catch::Contains("ib-hdr"));
}

TEST_CASE("sweep report writes under the site's reports directory by default, --reports wins") {
  Sandbox box;
  const std::string site = box.write("site.yaml", "format: 1\nresults: " + box.path("site-results") +
                                                      "\nreports: " + box.path("site-reports") + "\n");
  box.write("exp.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "exp.yaml", "--label", "s", "--site", site}).exit_code == 0);
  const auto r = box.sweep({"report", "s", "--site", site, "--no-figures"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(std::filesystem::exists(box.path("site-reports/s/report.md")));
  CHECK_FALSE(std::filesystem::exists(box.path("reports")));
  const auto flag = box.sweep({"report", "s", "--site", site, "--no-figures", "--reports", box.path("mine")});
  REQUIRE(flag.exit_code == 0);
  CHECK(std::filesystem::exists(box.path("mine/s/report.md")));
  const auto shown = box.sweep({"site", "--site", site});
  CHECK_THAT(shown.out, Catch::Contains(box.path("site-reports")) && Catch::Contains(site + ":3:10"));
}

TEST_CASE("a --detach without a site file says that none was found and where sweep looked") {
  Sandbox box;
  box.write("exp.yaml", kExperiment);
  // As from cron: no SWEEP_SITE, a home without a site file (the harness sets SWEEP_SITE=none).
  const auto r = e2e::shell("cd " + box.path("") + " && env -u SWEEP_SITE -u XDG_CONFIG_HOME HOME=" + box.path("home") +
                            " " + SWEEP_BIN + " run exp.yaml --detach");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--detach needs a batch executor (this campaign uses local, the default)") &&
                        Catch::Contains("no site file was found (sweep looked at: --site (not given); $SWEEP_SITE (not set); " +
                                        box.path("home") + "/.config/sweep/site.yaml (no such file); "
                                        "/etc/sweep/site.yaml (no such file))") &&
                        Catch::Contains("use --executor slurm"));
  const auto off = box.sweep({"run", "exp.yaml", "--detach"});
  CHECK_THAT(off.err, Catch::Contains("the site file is turned off (SWEEP_SITE=none)"));
}

TEST_CASE("the --timeout option is the Slurm jobs' time limit, in the dry run as in a submission") {
  Sandbox box;
  const std::string site = write_site(box);  // resources.time: 5 (minutes)
  box.write("exp.yaml", kExperiment);
  const auto r = box.sweep({"run", "exp.yaml", "--site", site, "--executor", "slurm", "--dry-run", "--timeout", "90"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto arrays = e2e::shell("find " + box.path("") + " -name array.sh -exec cat {} +");
  CHECK_THAT(arrays.out, Catch::Contains("\n#SBATCH --time=00:01:30\n"));
  CHECK(arrays.out.find("--time=5\n") == std::string::npos);
  CHECK_THAT(r.out, Catch::Contains("--time=00:01:30"));
}

TEST_CASE("a resumed campaign keeps the site file and the templates it started with, and names what changed") {
  // Before schema 9, sweep run --resume applied today's site file and --templates: a rerun ran with other
  // settings than the runs it is compared with.
  Sandbox box;
  const std::string site = box.write("site.yaml", "format: 1\nenv: {SITE_VAR: first}\n");
  std::filesystem::copy(e2e::repo_file("templates"), box.path("my templates"), std::filesystem::copy_options::recursive);
  const std::string local = box.path("my templates/local/run.sh.mustache");
  std::string text = e2e::read_file(local);
  text.insert(text.find("{{{command}}}"), "echo from-my-templates\n");
  box.write("my templates/local/run.sh.mustache", text);
  // Point n=2 fails until ok exists.
  box.write("exp.yaml", "name: kept\nmatrix: {n: [1, 2]}\n"
                        "workload: {command: 'test {{n}} = 1 || test -e " + box.path("ok") + " && echo \"n={{n}} v=$SITE_VAR\"'}\n");
  const auto first = box.sweep({"run", "exp.yaml", "--label", "k", "--site", site, "--templates", box.path("my templates")});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 1);
  box.write("site.yaml", "format: 1\nenv: {SITE_VAR: second}\n");
  box.write("ok", "");
  const auto resumed = box.sweep({"run", "--resume", "k", "--site", site});
  INFO(resumed.out << resumed.err);
  REQUIRE(resumed.exit_code == 0);
  CHECK_THAT(resumed.err, Catch::Contains("sweep: note: campaign \"k\" keeps the site file it started with, not today's "
                                          "(env.SITE_VAR first -> second)\n"));
  CHECK_THAT(resumed.err, Catch::Contains("sweep: note: campaign \"k\" keeps the job-script templates it started with, " +
                                          box.path("my templates") + " (this command's are "));
  auto db = box.db();
  SQLite::Statement q(db, "SELECT run_dir FROM runs WHERE attempt = 2 AND state = 'succeeded'");
  REQUIRE(q.executeStep());
  const std::string run_dir = q.getColumn(0).getString();
  CHECK_THAT(run_dir, Catch::EndsWith(".attempt2"));
  CHECK(e2e::read_file(run_dir + "/stdout") == "from-my-templates\nn=2 v=first\n");
  // Recorded with the campaign: the site's path, how it was found, its text and the templates.
  CHECK(e2e::scalar(db, "SELECT count(*) FROM campaign_settings WHERE name IN ('site.path', 'site.found_by', "
                        "'site.text', 'templates')") == 4);
  // The same site again: no note.
  box.write("site.yaml", "format: 1\nenv: {SITE_VAR: first}  # a comment is no change\n");
  const auto same = box.sweep({"run", "--resume", "k", "--site", site, "--templates", box.path("my templates")});
  CHECK(same.exit_code == 0);
  CHECK(same.err.find("note:") == std::string::npos);
  // An explicit --templates wins, with a note; recorded templates that are gone give way to today's.
  const auto given = box.sweep({"run", "--resume", "k", "--site", site, "--templates", e2e::repo_file("templates")});
  INFO(given.err);
  CHECK(given.exit_code == 0);
  CHECK_THAT(given.err, Catch::Contains("sweep: note: campaign \"k\" runs with this command's --templates "));
  std::filesystem::remove_all(box.path("my templates"));
  const auto gone = box.sweep({"run", "--resume", "k", "--site", site});
  INFO(gone.err);
  CHECK(gone.exit_code == 0);
  CHECK_THAT(gone.err, Catch::Contains("started with the job-script templates " + box.path("my templates") +
                                       ", which are gone; it runs with "));
}
