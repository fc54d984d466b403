// The paper of docs/reports.md#for-your-paper, as its reader would make it: docs/paper-example/lr.yaml
// run and reported, docs/paper-example/paper.tex (a two-column article that \inputs two tables and two
// figures as sweep wrote them) compiled with pdflatex. Its pages are drawn with pdftoppm into
// <build>/artifacts/ (docs/paper-example/page-1.png is the first, kept for the docs).
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "e2e/harness.h"

using namespace e2e;

namespace {

/// Font names pdffonts lists (subset prefix "ABCDEF+" removed), one per line after its two header lines.
std::vector<std::string> font_names(const std::string& pdffonts) {
  std::vector<std::string> names;
  std::istringstream in(pdffonts);
  std::string line;
  for (int skipped = 0; std::getline(in, line);) {
    if (skipped < 2) {
      ++skipped;
      continue;
    }
    std::string name = line.substr(0, line.find(' '));
    if (const auto plus = name.find('+'); plus != std::string::npos) name = name.substr(plus + 1);
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

TEST_CASE("the docs' two-column paper compiles from sweep's files as they are") {
  Sandbox box;
  box.write("lr.yaml", read_file(repo_file("docs/paper-example/lr.yaml")));
  box.write("paper.tex", read_file(repo_file("docs/paper-example/paper.tex")));
  const auto run = box.sweep({"run", "lr.yaml", "--label", "lr", "-j", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto report = box.sweep({"report", "lr"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);

  const std::string compile = "cd '" + box.path("") + "' && pdflatex -halt-on-error -interaction=nonstopmode paper.tex";
  REQUIRE(shell(compile).exit_code == 0);  // the first pass writes the labels, the second resolves them
  const auto latex = shell(compile);
  INFO(latex.out);
  REQUIRE(latex.exit_code == 0);
  const std::string log = read_file(box.path("paper.log"));
  CHECK_THAT(log, !Catch::Contains("Overfull \\hbox") && !Catch::Contains("undefined") && !Catch::Contains("Reference `"));

  // Every font is the document's Computer Modern: none of gnuplot's.
  const auto fonts = shell("pdffonts '" + box.path("paper.pdf") + "'");
  INFO(fonts.out);
  const auto names = font_names(fonts.out);
  CHECK(names.size() >= 3);
  for (const auto& name : names) CHECK_THAT(name, Catch::StartsWith("CM"));

  // The references resolved, and the pivot's labels are its headers (the figures' keys keep "lr=0.1").
  const auto text = shell("pdftotext '" + box.path("paper.pdf") + "' -");
  CHECK_THAT(text.out, Catch::Contains("Table 1 gives") && Catch::Contains("Figure 1 the throughput") &&
                           Catch::Contains("Learning rate") && Catch::Contains("Batch size") && !Catch::Contains("??"));

  std::filesystem::create_directories(SWEEP_ARTIFACTS_DIR);
  const auto pages = shell("pdftoppm -png -r 90 '" + box.path("paper.pdf") + "' '" + SWEEP_ARTIFACTS_DIR + "/paper-example-page'");
  CHECK(pages.exit_code == 0);
  CHECK(std::filesystem::exists(SWEEP_ARTIFACTS_DIR + "/paper-example-page-1.png"));
}
