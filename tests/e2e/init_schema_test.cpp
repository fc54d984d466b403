// Getting started: `sweep init` writes each starting point (never over a file), each plans, the python
// one runs a user's own script; `sweep schema` is the committed schema/experiment.schema.json, and
// python3-jsonschema (a validator nobody here wrote) accepts every bundled experiment and every
// starting point with it, and refuses the malformed corpus where a schema can tell.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <sstream>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kStarters{"python", "torchrun-slurm", "collbench", "trainbench"};
const fs::path kSource(SWEEP_SOURCE_DIR);

/// validate.py's verdict lines for `files` (tests/data/schema/validate.py).
std::vector<std::string> validate(const std::vector<std::string>& files) {
  std::string command = "/usr/bin/python3 " + (kSource / "tests/data/schema/validate.py").string() + " " +
                        (kSource / "schema/experiment.schema.json").string();
  for (const auto& f : files) command += " '" + f + "'";
  const auto r = shell(command);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == files.size());
  return lines;
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("sweep init writes every starting point once, each passes sweep plan and names the schema") {
  Sandbox box;
  for (const std::string& name : kStarters) {
    INFO(name);
    const std::string file = name + ".yaml";
    const auto r = box.sweep({"init", "--template", name, file});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == "wrote " + file + " (template " + name + "); check it with: sweep plan " + file + "\n");
    const std::string text = read_file(box.path(file));
    const std::string line = "# yaml-language-server: $schema=" + fs::canonical(kSource / "schema/experiment.schema.json").string() + "\n";
    CHECK_THAT(text, Catch::StartsWith(line));
    CHECK_THAT(text, Catch::Contains("sweep plan " + file));
    const auto plan = box.sweep({"plan", file});
    INFO(plan.err);
    CHECK(plan.exit_code == 0);
    CHECK(plan.err.empty());
    CHECK_THAT(plan.out, Catch::Contains("points"));
  }
  const auto plain = box.sweep({"init"});  // python into experiment.yaml
  REQUIRE(plain.exit_code == 0);
  CHECK_THAT(read_file(box.path("experiment.yaml")), Catch::Contains("workdir: experiment") &&
                                                         Catch::Contains("command: python3 train.py --batch-size"));
}

TEST_CASE("sweep init never overwrites: an existing file or a symbolic link is refused and left as it was") {
  Sandbox box;
  box.write("mine.yaml", "my own work\n");
  const auto again = box.sweep({"init", "mine.yaml"});
  CHECK(again.exit_code == 2);
  CHECK(again.err == "sweep: mine.yaml already exists: sweep init never overwrites a file; name another, e.g. sweep init "
                     "--template python my-python.yaml\n");
  CHECK(read_file(box.path("mine.yaml")) == "my own work\n");
  fs::create_symlink(box.path("target.yaml"), box.path("link.yaml"));  // dangling: O_EXCL must not follow it
  CHECK(box.sweep({"init", "--template", "collbench", "link.yaml"}).exit_code == 2);
  CHECK_FALSE(fs::exists(box.path("target.yaml")));
  const auto unknown = box.sweep({"init", "--template", "pyhton"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("python") && Catch::Contains("torchrun-slurm"));
  CHECK_FALSE(fs::exists(box.path("experiment.yaml")));
}

TEST_CASE("the python starting point runs a user's own script from the experiment's directory, then reports") {
  Sandbox box;
  // The user's script, with a space in its directory: it reads a file beside itself and prints what
  // the starting point's rules read.
  box.write("my project/data.txt", "7\n");
  box.write("my project/train.py", R"PY(import argparse, os, sys
p = argparse.ArgumentParser()
p.add_argument("--batch-size", type=int)
p.add_argument("--lr", type=float)
a = p.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
base = int(open(os.path.join(here, "data.txt")).read())
for step in range(3):
    print(f"step {step} loss: {1.0 / (step + 1) + a.lr:.4f}")
print(f"throughput: {base * a.batch_size}")
)PY");
  REQUIRE(box.sweep({"init", "my project/exp.yaml"}).exit_code == 0);
  const auto run = box.sweep({"run", "my project/exp.yaml", "--label", "first", "--set", "repetitions=1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out + run.err, Catch::Contains("4 succeeded"));
  const auto report = box.sweep({"report", "first", "--stdout"});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  CHECK_THAT(report.out, Catch::Contains("throughput") && Catch::Contains("448") && Catch::Contains("loss"));
  // docs/getting-started.md, steps 4 and 5: a second campaign, the comparison, the paper's table.
  const std::string exp = box.path("my project/exp.yaml");
  box.write("my project/exp.yaml", read_file(exp) + R"YAML(report:
  tables:
    - name: throughput
      title: Training throughput of my model
      rows: [batch_size, lr]
      columns:
        - {param: batch_size, label: Batch}
        - {param: lr, label: LR}
        - {metric: throughput, label: Throughput (samples/s)}
        - {metric: loss, label: Final loss, digits: 3}
)YAML");
  for (const char* label : {"first2", "amp"})
    REQUIRE(box.sweep({"run", "my project/exp.yaml", "--label", label, "--set", "repetitions=2"}).exit_code == 0);
  const auto compare = box.sweep({"compare", "first2", "amp"});
  INFO(compare.err);
  CHECK(compare.exit_code == 0);
  CHECK_THAT(compare.out, Catch::Contains("batch_size=64 lr=0.001") && Catch::Contains("unchanged"));
  REQUIRE(box.sweep({"report", "amp", "--spec", "my project/exp.yaml"}).exit_code == 0);
  const std::string tex = read_file(box.path("reports/amp/report.tex"));
  CHECK_THAT(tex, Catch::Contains("\\toprule") && Catch::Contains("Training throughput of my model") &&
                      Catch::Contains("Throughput\\\\(samples/s)") && Catch::Contains("$448"));
}

TEST_CASE("sweep schema prints the committed schema/experiment.schema.json") {
  Sandbox box;
  const auto r = box.sweep({"schema"});
  REQUIRE(r.exit_code == 0);
  // When this fails after a format change: sweep schema > schema/experiment.schema.json
  CHECK(r.out == read_file((kSource / "schema/experiment.schema.json").string()));
}

TEST_CASE("every bundled experiment names the committed schema in its yaml-language-server line") {
  for (const std::string& file : files_in(kSource / "experiments")) {
    INFO(file);
    CHECK_THAT(read_file(file), Catch::StartsWith("# yaml-language-server: $schema=../schema/experiment.schema.json\n"));
  }
}

TEST_CASE("python3-jsonschema accepts every bundled experiment, the full example and every starting point") {
  Sandbox box;
  std::vector<std::string> files = files_in(kSource / "experiments");
  files.push_back((kSource / "tests/data/experiments/full.yaml").string());
  for (const std::string& name : kStarters) {
    REQUIRE(box.sweep({"init", "--template", name, name + ".yaml"}).exit_code == 0);
    files.push_back(box.path(name + ".yaml"));
  }
  for (const std::string& verdict : validate(files)) CHECK_THAT(verdict, Catch::StartsWith("valid "));
}

TEST_CASE("python3-jsonschema refuses the malformed experiments whose fault a schema can see, and only those") {
  // The rest need the loader: expressions, names across sections, values a template renders, YAML's
  // own rules (duplicate keys), limits of sizes and of the programs' layouts.
  const std::set<std::string> expected{
#include "../data/schema/refused-by-schema.inc"
  };
  const std::vector<std::string> files = files_in(kSource / "tests/data/bad-experiments");
  std::set<std::string> refused;
  for (const std::string& verdict : validate(files))
    if (verdict.starts_with("refused ")) refused.insert(verdict.substr(8, verdict.find(':') - 8));
  CHECK(refused == expected);
  CHECK(refused.size() >= 40);  // of 109 cases: the schema is no empty promise
}
