// A paper made of sweep's output: every bundled study that runs here quickly on the CPU (demo.yaml on
// the local executor; e16-allreduce-backends.yaml at scale=ci with gloo and mpi under mpirun, as
// tests/workloads/e16_report_test.cpp runs it) is run and reported; its report.tex (every table) is
// \input, and each figure's paper version (figures/paper/<file>.tex; the standalone PDF at its own size
// where a report has none), into a two-column article with booktabs, graphicx, siunitx and xcolor,
// compiled with pdflatex. The other studies (e15, nanocluster-*, nightly) need trainbench, so torch.
//
// The second case checks that the log has no "Overfull \hbox" and lists each with the file it is in.
// Before issue 34's paper items were merged it failed with 6: demo's table 38-43 pt too wide, e16's
// 420 pt, and each of the four 5 in figures 132 pt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e/harness.h"

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
      {"e16-allreduce-backends.yaml", "e16", {"--set", "scale=ci", "--set", "backend=[gloo, mpi]", "--set", "repetitions=2", "-j", "1"}},
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

/// The LaTeX lines that \input a report's tables (report.tex, every table) and its figures, paths
/// relative to `paper`: each figure's paper version (figures/paper/<file>.tex, typeset in the document's
/// font, as docs/reports.md "Figures for a paper" says), else its standalone PDF at its own size.
std::string report_body(const std::filesystem::path& report, const std::filesystem::path& paper) {
  const auto rel = [&](const std::filesystem::path& p) { return std::filesystem::relative(p, paper).string(); };
  std::string body = "\\input{" + rel(report / "report.tex") + "}\n";
  const bool versions = std::filesystem::exists(report / "figures" / "paper");
  const std::filesystem::path dir = versions ? report / "figures" / "paper" : report / "figures";
  std::vector<std::filesystem::path> figures;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == (versions ? ".tex" : ".pdf")) figures.push_back(e.path());
  std::sort(figures.begin(), figures.end());
  // Each figure in a file of its own (fig-<study>-<name>.tex), so the log's line numbers name it.
  for (const auto& f : figures) {
    const std::string name = "fig-" + report.filename().string() + "-" + f.stem().string() + ".tex";
    std::ofstream(paper / name) << "\\begin{figure}[ht]\n  \\centering\n"
                                << (versions ? "  \\graphicspath{{" + rel(dir) + "/}}\\input{" + rel(f) + "}\n"
                                             : "  \\includegraphics{" + rel(f) + "}\n")
                                << "  \\caption{\\detokenize{" << f.stem().string() << "}}\n\\end{figure}\n";
    body += "\\input{" + name + "}\n";
  }
  return body;
}

struct Paper {
  int exit_code = -1;
  std::string log;
  std::string pdf;
};

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
  box.write("paper/paper.tex", "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
                               "\\usepackage{siunitx}\n\\usepackage{xcolor}\n\\begin{document}\n" + body + "\\end{document}\n");
  const auto tex = shell("cd '" + paper.string() + "' && pdflatex -interaction=nonstopmode -halt-on-error paper.tex");
  return {tex.exit_code, read_file((paper / "paper.log").string()), (paper / "paper.pdf").string()};
}

/// Each "Overfull \hbox (...pt too wide) ..." line of a LaTeX log, after the last file the log opened
/// before it ("../reports/e16/report.tex: Overfull ..."; the line numbers are that file's).
std::vector<std::string> overfull_lines(const std::string& log) {
  std::vector<std::string> out;
  std::istringstream in(log);
  std::string file = "paper.tex";
  for (std::string line; std::getline(in, line);) {
    if (const auto open = line.rfind("(."); open != std::string::npos && line.find(".tex", open) != std::string::npos)
      file = line.substr(open + 1, line.find(".tex", open) + 3 - open);
    if (line.rfind("Overfull \\hbox", 0) == 0) out.push_back(file + ": " + line);
  }
  return out;
}

}  // namespace

TEST_CASE("paper: the quick bundled studies' tables and figures compile in a two-column article") {
  Sandbox box;
  const Paper p = compile_paper(box);
  INFO(p.log);
  CHECK(p.exit_code == 0);
  CHECK(read_file(p.pdf).rfind("%PDF", 0) == 0);
  // Both studies' tables and figures went in (the log names each file it read).
  CHECK_THAT(p.log, Catch::Contains("reports/demo/report.tex") && Catch::Contains("reports/e16/report.tex") &&
                        Catch::Contains("fig-demo-default-elapsed.tex") && Catch::Contains("fig-e16-allreduce_time.tex") &&
                        Catch::Contains("figures/paper/allreduce_time.tex"));
}

TEST_CASE("paper: nothing in the quick bundled studies' reports overflows the column") {
  Sandbox box;
  const Paper p = compile_paper(box);
  const auto overfull = overfull_lines(p.log);
  std::string lines;
  for (const auto& l : overfull) lines += l + "\n";
  INFO("Overfull lines of the log:\n" << lines);
  CHECK(overfull.empty());
}
