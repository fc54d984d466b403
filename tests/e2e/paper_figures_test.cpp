// Paper figures (docs/reports.md#figures-for-a-paper): `sweep report` writes figures/paper/<file>.tex and
// its graphic with gnuplot's cairolatex terminal; a two-column article \inputs them and pdflatex typesets
// every label in the document's own fonts (pdffonts), with no Overfull \hbox, and a hostile parameter
// value stays text even with shell escape on. Style files survive a second report; a hand-edited .gp
// is kept with a message. The first page is kept as an image in <build>/artifacts/.
#include <catch2/catch.hpp>

#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

// backend's second value would run `touch pwned`, and the bars' ylabel read /etc/passwd, if either reached
// LaTeX as code.
const char* kExperiment = R"yaml(name: pf
matrix:
  batch: [32, 64, 128]
  backend: [gloo, '\write18{touch pwned}']
repetitions: 3
workload:
  command: echo "time=$(( {{batch}} / 4 + {{repetition}} ))"
metrics:
  - {name: time, unit: s, better: lower, regex: 'time=(?<value>[0-9.]+)'}
report:
  figure_style: all.gp
  figures:
    - {name: time, kind: lines, x: batch, y: time, series: [backend], log: [x], style: time-style.gp}
    - {name: bars, kind: bars, x: backend, y: time, series: [batch], width: text, title: Time per backend,
       ylabel: '\input{/etc/passwd}'}
)yaml";

const char* kPaper = R"(\documentclass[twocolumn,a4paper]{article}
\usepackage{graphicx}
\usepackage{xcolor}
\graphicspath{{../reports/pf/figures/paper/}}
\begin{document}
Words before the figures.
\begin{figure}
  \centering
  \input{../reports/pf/figures/paper/time.tex}
  \caption{Time against batch size.}
\end{figure}
\begin{figure*}
  \centering
  \input{../reports/pf/figures/paper/bars.tex}
  \caption{Time per backend.}
\end{figure*}
Words after the figures.
\end{document}
)";

/// The paper graphic's name of figure `file` of campaign `label`, computed with sha256sum.
std::string graphic_of(const std::string& file, const std::string& label) {
  return file + "-" + shell("printf %s '" + label + "' | sha256sum").out.substr(0, 10);
}

void write_campaign(const Sandbox& box) {
  box.write("pf.yaml", kExperiment);
  box.write("all.gp", "# every figure\nset grid xtics\n");
  box.write("time-style.gp", "set ylabel 'Styled seconds'\nif (sweep_output eq 'paper') set xlabel 'Batch size $B$'\n");
  const auto run = box.sweep({"run", "pf.yaml", "--label", "pf"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
}

std::string paper_section(const std::string& script) { return script.substr(script.find("cd 'paper'")); }

}  // namespace

TEST_CASE("paper figures compile in a two-column article in the document's fonts, and a hostile value stays text") {
  Sandbox box;
  write_campaign(box);
  const auto report = box.sweep({"report", "pf"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string figures = box.path("reports/pf/figures");
  const std::string script = read_file(figures + "/time.gp");
  CHECK_THAT(script, Catch::Contains("(format 2)") && Catch::Contains("set xtics ('32' 32, '64' 64, '128' 128)") &&
                         Catch::Contains("using ($1*0.9659363):2:3:4") && Catch::Contains("using ($1*1.035265):2:3:4") &&
                         Catch::Contains("set key outside top center horizontal"));
  // The paper version has no title (the caption is LaTeX's) and never the campaign's label.
  CHECK_THAT(paper_section(script), Catch::Contains("unset title") && !Catch::Contains("pf:"));
  CHECK_THAT(paper_section(read_file(figures + "/bars.gp")), Catch::Contains("set title 'Time per backend'") &&
                                                                 Catch::Contains("size 6.2in,2.3in"));
  const std::string tex = read_file(figures + "/paper/time.tex");
  // The graphic's name carries the campaign's: time-<10 hex digits of sha256("pf")>.
  const std::string graphic = graphic_of("time", "pf");
  CHECK_THAT(tex, Catch::Contains("\\textbackslash{}write18\\{touch pwned\\}") && Catch::Contains("]{" + graphic + "}}"));
  CHECK(fs::exists(figures + "/paper/" + graphic + ".pdf"));

  box.write("paper/main.tex", kPaper);
  const auto latex = shell("cd '" + box.path("paper") + "' && pdflatex -shell-escape -halt-on-error -interaction=nonstopmode main.tex");
  INFO(latex.out << latex.err);
  REQUIRE(latex.exit_code == 0);
  CHECK_FALSE(fs::exists(box.path("paper/pwned")));
  const std::string log = read_file(box.path("paper/main.log"));
  CHECK_THAT(log, !Catch::Contains("Overfull \\hbox"));
  const auto fonts = shell("pdffonts '" + box.path("paper/main.pdf") + "'");
  INFO(fonts.out);
  CHECK_THAT(fonts.out, Catch::Contains("CMR10") && !Catch::Contains("DejaVu") && !Catch::Contains("Helvetica"));
  // The labels are in the page's text: the values, the styled axis labels, the hostile value as text.
  const auto text = shell("pdftotext -layout '" + box.path("paper/main.pdf") + "' -");
  CHECK_THAT(text.out, Catch::Contains("128") && Catch::Contains("Batch size") && Catch::Contains("Styled seconds") &&
                           Catch::Contains("\\write18{touch pwned}") &&
                           Catch::Contains("\\input{/etc/passwd}"));
  fs::create_directories(SWEEP_ARTIFACTS_DIR);
  CHECK(shell("pdftoppm -png -r 100 -f 1 -l 1 '" + box.path("paper/main.pdf") + "' '" + SWEEP_ARTIFACTS_DIR + "/paper-figures'")
            .exit_code == 0);
}

TEST_CASE("a style file's settings are drawn and survive a second sweep report") {
  Sandbox box;
  write_campaign(box);
  for (int round = 0; round < 2; ++round) {
    const auto report = box.sweep({"report", "pf"});
    INFO(round << report.out << report.err);
    REQUIRE(report.exit_code == 0);
    CHECK_THAT(report.err, !Catch::Contains("kept"));
    const std::string figures = box.path("reports/pf/figures");
    // The style files' checked text is in the script, never a load of their paths.
    CHECK_THAT(read_file(figures + "/time.gp"),
               Catch::Contains("# style file " + box.path("all.gp") + "\n# every figure\nset grid xtics\n# end of the style file\n"
                               "# style file " + box.path("time-style.gp") + "\nset ylabel 'Styled seconds'\n") &&
                   !Catch::Contains("load '"));
    CHECK_THAT(read_file(figures + "/bars.gp"), Catch::Contains("# style file " + box.path("all.gp") + "\n") &&
                                                    !Catch::Contains("time-style.gp"));
    CHECK_THAT(read_file(figures + "/time.svg"), Catch::Contains("Styled seconds") && !Catch::Contains("Batch size $B$"));
    CHECK_THAT(read_file(figures + "/paper/time.tex"), Catch::Contains("Styled seconds") && Catch::Contains("Batch size $B$"));
    CHECK_FALSE(fs::exists(figures + "/time.gp.new"));
  }
}

TEST_CASE("a missing or refused style file is an error at its place and nothing is drawn") {
  Sandbox box;
  write_campaign(box);
  fs::remove(box.path("time-style.gp"));
  const auto missing = box.sweep({"report", "pf"});
  CHECK(missing.exit_code == 3);
  CHECK_THAT(missing.err, Catch::Contains("pf.yaml:13:") && Catch::Contains("style file \"time-style.gp\""));
  CHECK_FALSE(fs::exists(box.path("reports/pf/figures/time.gp")));
  // sweep plan (and so sweep run) refuses it before anything runs.
  const auto plan = box.sweep({"plan", "pf.yaml"});
  CHECK(plan.exit_code == 3);
  CHECK_THAT(plan.err, Catch::Contains("pf.yaml:13:") && Catch::Contains("style file \"time-style.gp\""));
  box.write("time-style.gp", "set key\nset output '|touch pwned'\n");
  const auto refused = box.sweep({"report", "pf"});
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.err, Catch::Contains(box.path("time-style.gp") + ":2:1: \"set output\""));
  CHECK_FALSE(fs::exists(box.path("reports/pf/figures/pwned")));
  // Another user could write it (group-writable): refused at its style: line, as another user's is.
  box.write("time-style.gp", "set key\n");
  fs::permissions(box.path("time-style.gp"), fs::perms::group_write, fs::perm_options::add);
  const auto writable = box.sweep({"report", "pf"});
  CHECK(writable.exit_code == 3);
  CHECK_THAT(writable.err, Catch::Contains("pf.yaml:13:") && Catch::Contains("not trusted"));
  CHECK_FALSE(fs::exists(box.path("reports/pf/figures/time.gp")));
}

TEST_CASE("a hand-edited figure script survives sweep report, which says what to do") {
  Sandbox box;
  write_campaign(box);
  REQUIRE(box.sweep({"report", "pf"}).exit_code == 0);
  const std::string gp = box.path("reports/pf/figures/time.gp");
  const std::string edited = read_file(gp) + "# my change\n";
  box.write("reports/pf/figures/time.gp", edited);
  const auto again = box.sweep({"report", "pf"});
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains("sweep report: note: reports/pf/figures/time.gp was changed since sweep wrote it") &&
                            Catch::Contains("time.gp.new") && Catch::Contains("delete"));
  CHECK(read_file(gp) == edited);
  CHECK(read_file(gp + ".new").rfind("# sweep figure time of campaign pf (format 2)", 0) == 0);
  CHECK(fs::exists(box.path("reports/pf/figures/time.svg")));
  // Deleting the edited script has sweep write it again, and the stale offer goes.
  fs::remove(gp);
  const auto third = box.sweep({"report", "pf"});
  CHECK(third.exit_code == 0);
  CHECK_THAT(third.err, !Catch::Contains("was changed"));
  CHECK(read_file(gp).rfind("# sweep figure time of campaign pf (format 2)", 0) == 0);
  CHECK_FALSE(fs::exists(gp + ".new"));
}

TEST_CASE("paper figures fit a one-column article: a column figure and one of width 4.5in") {
  Sandbox box;
  write_campaign(box);
  REQUIRE(box.sweep({"report", "pf"}).exit_code == 0);
  // A one-column article's text is 345 pt (4.77 in) wide: the column figure, and one of `width: 4.5in`.
  box.write("one.yaml", "format: 1\nreport:\n  figures:\n"
                        "    - {name: wide, kind: lines, x: batch, y: time, series: [backend], log: [x], width: 4.5in}\n");
  REQUIRE(box.sweep({"report", "pf", "--spec", "one.yaml"}).exit_code == 0);
  box.write("paper/one.tex", "\\documentclass[a4paper]{article}\n\\usepackage{graphicx}\n\\usepackage{xcolor}\n"
                             "\\graphicspath{{../reports/pf/figures/paper/}}\n\\begin{document}\nWords.\n"
                             "\\begin{figure}\\centering\\input{../reports/pf/figures/paper/time.tex}\\caption{A column.}\\end{figure}\n"
                             "\\begin{figure}\\centering\\input{../reports/pf/figures/paper/wide.tex}\\caption{4.5 in.}\\end{figure}\n"
                             "\\end{document}\n");
  CHECK_THAT(read_file(box.path("reports/pf/figures/wide.gp")), Catch::Contains("size 4.5in,2.79in"));
  const auto latex = shell("cd '" + box.path("paper") + "' && pdflatex -halt-on-error -interaction=nonstopmode one.tex");
  INFO(latex.out);
  REQUIRE(latex.exit_code == 0);
  CHECK_THAT(read_file(box.path("paper/one.log")), !Catch::Contains("Overfull \\hbox") && Catch::Contains("Output written"));
}

TEST_CASE("two campaigns' figures of one name keep their own graphics in one paper") {
  Sandbox box;
  write_campaign(box);
  REQUIRE(box.sweep({"run", "pf.yaml", "--label", "pf2", "--set", "repetitions=1"}).exit_code == 0);
  for (const char* label : {"pf", "pf2"}) REQUIRE(box.sweep({"report", label}).exit_code == 0);
  // Both directories in \graphicspath, the second campaign's first: each figure still finds its own.
  box.write("paper/two.tex", "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{xcolor}\n"
                             "\\graphicspath{{../reports/pf2/figures/paper/}{../reports/pf/figures/paper/}}\n"
                             "\\begin{document}\n\\input{../reports/pf/figures/paper/time.tex}\n\n"
                             "\\input{../reports/pf2/figures/paper/time.tex}\n\\end{document}\n");
  const auto latex = shell("cd '" + box.path("paper") + "' && pdflatex -halt-on-error -interaction=nonstopmode two.tex");
  INFO(latex.out);
  REQUIRE(latex.exit_code == 0);
  const std::string log = read_file(box.path("paper/two.log"));
  CHECK_THAT(log, Catch::Contains("reports/pf/figures/paper//" + graphic_of("time", "pf") + ".pdf") &&
                      Catch::Contains("reports/pf2/figures/paper//" + graphic_of("time", "pf2") + ".pdf"));
}

TEST_CASE("gnuplot's drawings replace a symlink planted in their place and never write through it") {
  Sandbox box;
  write_campaign(box);
  REQUIRE(box.sweep({"report", "pf"}).exit_code == 0);
  const std::string figures = box.path("reports/pf/figures");
  const std::vector<std::string> planted{figures + "/time.svg", figures + "/time.pdf", figures + "/paper/time.tex",
                                         figures + "/paper/" + graphic_of("time", "pf") + ".pdf"};
  for (std::size_t i = 0; i < planted.size(); ++i) {
    const std::string victim = box.write("victim" + std::to_string(i), "precious\n");
    fs::remove(planted[i]);
    fs::create_symlink(victim, planted[i]);
  }
  const auto again = box.sweep({"report", "pf"});
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  for (std::size_t i = 0; i < planted.size(); ++i) {
    CHECK(read_file(box.path("victim" + std::to_string(i))) == "precious\n");
    CHECK(fs::is_regular_file(fs::symlink_status(planted[i])));
  }
  // A paper directory that is a symlink to another is refused, and nothing is drawn there.
  fs::create_directories(box.path("elsewhere"));
  fs::remove_all(figures + "/paper");
  fs::create_directory_symlink(box.path("elsewhere"), figures + "/paper");
  const auto refused = box.sweep({"report", "pf"});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code != 0);
  CHECK_THAT(refused.err, Catch::Contains("paper figures' directory"));
  CHECK(fs::is_empty(box.path("elsewhere")));
}

TEST_CASE("what gnuplot warns of while drawing a figure is a note on stderr") {
  Sandbox box;
  // Six long key entries in a column-wide figure: gnuplot cannot fit them into its key, and says so.
  box.write("crowded.yaml", "name: crowded\nmatrix:\n  batch: [32, 64, 128]\n  model: [small, large]\n  lr: [0.1, 0.01, 0.001]\n"
                            "workload:\n  command: echo \"loss={{lr}}\"\n"
                            "metrics:\n  - {name: loss, better: lower, regex: 'loss=(?<value>[0-9.]+)'}\n"
                            "report:\n  figures:\n    - {name: crowded, kind: lines, x: batch, y: loss, series: [model, lr], log: [x],\n"
                            "       labels: {model: Model architecture name, lr: Learning rate of the optimiser}}\n");
  const auto run = box.sweep({"run", "crowded.yaml", "--label", "crowded"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto r = box.sweep({"report", "crowded"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("note: gnuplot warned while drawing figure crowded: ") &&
                        Catch::Contains("difficulty fitting plot titles into key"));
}
