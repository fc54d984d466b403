#pragma once
// A paper made of reports, for the tests that compile sweep's LaTeX tables and paper figures with pdflatex
// (tests/e2e/paper_test.cpp, tests/slurm/slurm_campaigns_test.cpp).
#include <filesystem>
#include <string>
#include <vector>

namespace e2e {

/// The LaTeX lines that \input a report's tables (report.tex, every table) and its figures, paths
/// relative to `paper`: each figure's paper version (figures/paper/<file>.tex), else its standalone PDF.
/// Each figure goes in a file of its own in `paper` (made when missing: fig-<report>-<name>.tex), so the
/// log names it.
std::string report_body(const std::filesystem::path& report, const std::filesystem::path& paper);

struct Paper {
  int exit_code = -1;
  std::string log;
  std::string pdf;
};

/// Writes `paper`/paper.tex, a two-column article (booktabs, graphicx, siunitx, xcolor) of `body`, and
/// compiles it once with pdflatex.
Paper compile_article(const std::filesystem::path& paper, const std::string& body);

/// Each "Overfull \hbox (...pt too wide) ..." line of a LaTeX log, after the last file the log opened
/// before it ("../reports/e16/report.tex: Overfull ..."; the line numbers are that file's).
std::vector<std::string> overfull_lines(const std::string& log);

}  // namespace e2e
