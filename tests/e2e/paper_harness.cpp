#include "e2e/paper_harness.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "e2e/harness.h"

namespace e2e {

std::string report_body(const std::filesystem::path& report, const std::filesystem::path& paper) {
  std::filesystem::create_directories(paper);  // the figures' files are written there
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

Paper compile_article(const std::filesystem::path& paper, const std::string& body) {
  std::filesystem::create_directories(paper);
  std::ofstream(paper / "paper.tex") << "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
                                        "\\usepackage{siunitx}\n\\usepackage{xcolor}\n\\begin{document}\n"
                                     << body << "\\end{document}\n";
  const auto tex = shell("cd '" + paper.string() + "' && pdflatex -interaction=nonstopmode -halt-on-error paper.tex");
  return {tex.exit_code, read_file((paper / "paper.log").string()), (paper / "paper.pdf").string()};
}

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

}  // namespace e2e
