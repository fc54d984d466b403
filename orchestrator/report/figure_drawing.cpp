#include "report/figure_drawing.h"

#include <fmt/core.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "exec/capture.h"
#include "report/figure_paper.h"
#include "util/error.h"
#include "util/safe_files.h"

namespace sweep::report {
namespace fs = std::filesystem;
namespace {

/// A directory made new (mkdtemp) and removed with everything in it when this goes out of scope.
class PrivateDirectory {
 public:
  explicit PrivateDirectory(const fs::path& parent) {
    std::string pattern = (parent / ".draw-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw Error(ErrorKind::io, fmt::format("cannot make a directory to draw figures in {}", parent.string()));
    path_ = pattern;
  }
  ~PrivateDirectory() {
    std::error_code ec;
    fs::remove_all(path_, ec);  // removes symlinks inside, never what they point to
  }
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// Renames `from` over `to` (a symlink at `to` is replaced, not followed); false when `from` is missing.
bool move_into_place(const fs::path& from, const fs::path& to, std::vector<std::string>& files) {
  if (std::rename(from.c_str(), to.c_str()) != 0) return false;
  files.push_back(to.string());
  return true;
}

}  // namespace

Drawing draw_figure(const std::string& figures_dir, const FigureText& f) {
  const fs::path figures(figures_dir);
  const fs::path paper = figures / kPaperDir;
  require_trusted_entry(paper.string(), "the paper figures' directory");  // a symlink there is refused
  PrivateDirectory work(figures);
  make_new_directory((work.path() / kPaperDir).string(), "the paper figures' drawing directory");
  write_new_file((work.path() / (f.file + ".gp")).string(), f.script);
  write_new_file((work.path() / (f.file + ".dat")).string(), f.data);

  Drawing d;
  const auto result = exec::capture({"gnuplot", f.file + ".gp"}, work.path().string(), std::chrono::seconds(60));
  if (!result) {
    d.error = "gnuplot was not found (install Debian's gnuplot-nox, or pass --no-figures)";
    return d;
  }
  if (result->exit_code != 0 || result->timed_out) {
    d.error = fmt::format("gnuplot {}: {}", result->timed_out ? "timed out" : "exited with " + std::to_string(result->exit_code),
                          result->err);
    return d;
  }
  const std::string svg = read_all(work.path() / (f.file + ".svg"));
  const bool placed = move_into_place(work.path() / (f.file + ".svg"), figures / (f.file + ".svg"), d.files) &&
                      move_into_place(work.path() / (f.file + ".pdf"), figures / (f.file + ".pdf"), d.files) &&
                      move_into_place(work.path() / kPaperDir / (f.graphic + ".tex"), paper / (f.file + ".tex"), d.files) &&
                      move_into_place(work.path() / kPaperDir / (f.graphic + ".pdf"), paper / (f.graphic + ".pdf"), d.files);
  if (!placed) {
    d.error = "gnuplot did not write every drawing (svg, pdf and the paper version) of the script";
    return d;
  }
  d.svg = svg;
  d.warnings = result->err;
  return d;
}

}  // namespace sweep::report
