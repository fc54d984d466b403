// A paper made of sweep's output: every bundled study that runs here quickly on the CPU (demo.yaml on
// the local executor; e16-allreduce-backends.yaml at scale=ci with gloo under mpirun (not mpi: an e2e test runs under ASan
// in CI, where Open MPI's own leaks fail a run; tests/workloads runs mpi with their suppressions), as
// tests/workloads/e16_report_test.cpp runs it) is run and reported; its report.tex (every table) is
// \input, and each figure's paper version (figures/paper/<file>.tex; the standalone PDF at its own size
// where a report has none), into a two-column article with booktabs, graphicx, siunitx and xcolor,
// compiled with pdflatex. The other studies (e15, nanocluster-*, nightly) need trainbench, so torch.
//
// It also checks that the log has no "Overfull \hbox" and lists each with the file it is in.
// Before issue 34's paper items were merged it failed with 6: demo's table 38-43 pt too wide, e16's
// 420 pt, and each of the four 5 in figures 132 pt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e/harness.h"
#include "e2e/paper_harness.h"

using namespace e2e;

namespace {

struct Study {
  const char* file;   // under experiments/
  const char* label;
  std::vector<std::string> run_args;
};

const std::vector<Study>& studies() {
  static const std::vector<Study> all{
      {"demo.yaml", "demo", {"-j", "2"}},
      {"e16-allreduce-backends.yaml", "e16", {"--set", "scale=ci", "--set", "backend=[gloo]", "--set", "repetitions=2", "-j", "1"}},
  };
  return all;
}

/// The study's experiment as this machine runs it: mpirun instead of srun (no Slurm here).
std::string local_text(const Study& s) {
  std::string text = read_file(repo_file(std::string("experiments/") + s.file));
  const std::string srun = "  launcher: srun\n  mpi: pmix\n";
  if (const auto at = text.find(srun); at != std::string::npos) text.replace(at, srun.size(), "  launcher: mpirun\n");
  return text;
}

/// Runs and reports every study in `box`, then compiles paper/paper.tex from their reports.
Paper compile_paper(const Sandbox& box) {
  const std::filesystem::path paper = box.path("paper");
  std::filesystem::create_directories(paper);
  std::string body;
  for (const Study& s : studies()) {
    box.write(s.label + std::string(".yaml"), local_text(s));
    std::vector<std::string> args{"run", s.label + std::string(".yaml"), "--label", s.label};
    args.insert(args.end(), s.run_args.begin(), s.run_args.end());
    const auto run = box.sweep(args);
    INFO(s.file << ": " << run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const auto report = box.sweep({"report", s.label});
    INFO(report.err);
    REQUIRE(report.exit_code == 0);
    body += "\\section{" + std::string(s.label) + "}\n" + report_body(box.path(std::string("reports/") + s.label), paper);
  }
  return compile_article(paper, body);
}

}  // namespace

TEST_CASE("paper: the quick bundled studies' tables and figures compile in a two-column article, none overflowing") {
  Sandbox box;
  const Paper p = compile_paper(box);
  INFO(p.log);
  CHECK(p.exit_code == 0);
  CHECK(read_file(p.pdf).rfind("%PDF", 0) == 0);
  // Both studies' tables and figures went in (the log names each file it read).
  CHECK_THAT(p.log, Catch::Contains("reports/demo/report.tex") && Catch::Contains("reports/e16/report.tex") &&
                        Catch::Contains("fig-demo-default-elapsed.tex") && Catch::Contains("fig-e16-allreduce_time.tex") &&
                        Catch::Contains("figures/paper/allreduce_time.tex"));
  const auto overfull = overfull_lines(p.log);
  std::string lines;
  for (const auto& l : overfull) lines += l + "\n";
  INFO("Overfull lines of the log:\n" << lines);
  CHECK(overfull.empty());
}
