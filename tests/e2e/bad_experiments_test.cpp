// The corpus of malformed experiments (tests/data/bad-experiments/, its README says how it is made):
// every case exits 3 with its exact file:line:column message and changes nothing on disk, from
// `sweep plan`, `sweep run --dry-run` (local and slurm) and `sweep run` in a directory that already
// holds a results database.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(SWEEP_SOURCE_DIR) / "tests/data/bad-experiments";

/// Every file under `dir` with its bytes, but the harness's captures of sweep's output (.sweep.*):
/// what "nothing changed on disk" compares.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && !e.path().filename().string().starts_with(".sweep."))
      out[fs::relative(e.path(), dir).string()] = read_file(e.path().string());
  return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// Runs `sweep plan <file>`, `sweep run --dry-run <file>`, `sweep run --dry-run --executor slurm <file>`
/// and `sweep run <file>` in the sandbox and checks exit 3, the message and an unchanged disk: plan
/// refuses everything that run (with either executor) refuses, at the same file:line:column.
void check_refused(const Sandbox& box, const std::string& file, const std::string& expected) {
  const auto before = snapshot(box.dir());
  const std::vector<std::vector<std::string>> commands{{"plan", file},
                                                       {"run", "--dry-run", file},
                                                       {"run", "--dry-run", "--executor", "slurm", file},
                                                       {"run", file}};
  for (const auto& command : commands) {
    INFO(command[0] << " " << command[1] << " ... " << file);
    const auto r = box.sweep(command);
    CHECK(r.exit_code == 3);
    CHECK(first_line(r.err) == "sweep: " + expected);
    CHECK(r.out.empty());
  }
  CHECK(snapshot(box.dir()) == before);
}

/// Checks every `share`-th file of the corpus (sorted by name), starting at the `part`-th: the corpus is
/// four test cases, so that under ASan (four sanitized sweeps a file) no one case is the suite's tail.
void check_corpus_part(std::size_t part, std::size_t share) {
  Sandbox box;
  box.write("ok.yaml", "name: ok\nmatrix:\n  x: [1, 2]\nworkload:\n  command: echo x={{x}}\n");
  REQUIRE(box.sweep({"run", "ok.yaml", "--label", "ok"}).exit_code == 0);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kCorpus))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 60);
  for (std::size_t i = part; i < files.size(); i += share) {
    const std::string name = files[i].filename().string();
    const fs::path error = fs::path(files[i]).replace_extension(".error");
    INFO(name);
    REQUIRE(fs::exists(error));
    fs::copy_file(files[i], box.path(name));
    check_refused(box, name, first_line(read_file(error.string())));
    fs::remove(box.path(name));
  }
}

}  // namespace

TEST_CASE("every malformed experiment of the corpus gets its file:line:column error, exit 3 and no change on disk (part 1 of 4)") {
  check_corpus_part(0, 4);
}
TEST_CASE("every malformed experiment of the corpus gets its file:line:column error, exit 3 and no change on disk (part 2 of 4)") {
  check_corpus_part(1, 4);
}
TEST_CASE("every malformed experiment of the corpus gets its file:line:column error, exit 3 and no change on disk (part 3 of 4)") {
  check_corpus_part(2, 4);
}
TEST_CASE("every malformed experiment of the corpus gets its file:line:column error, exit 3 and no change on disk (part 4 of 4)") {
  check_corpus_part(3, 4);
}

TEST_CASE("an experiment file over 16 MiB is refused before it is parsed") {
  Sandbox box;
  {
    std::ofstream out(box.path("huge.yaml"));
    out << "name: huge\nmatrix:\n  x: [1]\nworkload:\n  command: echo\n# ";
    out << std::string(17u << 20, 'x') << "\n";
  }
  const auto size = fs::file_size(box.path("huge.yaml"));
  CHECK(size > (16u << 20));
  check_refused(box, "huge.yaml",
                "huge.yaml: the file is " + std::to_string(size) + " bytes; experiment files are limited to 16 MiB");
}
