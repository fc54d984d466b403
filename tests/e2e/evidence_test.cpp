// Evidence in every failure (issue 33): a real Python 3 training script that logs through `logging`
// (stderr) and dies with a traceback on one point. `sweep run`'s summary, `show` and the report carry
// the program's own words, grouped by cause; a missing metric says it was printed on stderr and what
// to change; `run` ends with the command to type next.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

const char* kTrain = R"py(import argparse
import logging
import os

logging.basicConfig(level=logging.INFO)  # to stderr, as Python's logging does by default
parser = argparse.ArgumentParser()
parser.add_argument("--lr", type=float, required=True)
args = parser.parse_args()
logging.info("epoch 1: loss 0.52")
if args.lr > 1:
    raise ValueError(f"learning rate {args.lr} diverged: loss is nan (token {os.environ['HF_TOKEN']})")
logging.info("throughput: %.1f samples/s", 812.5)
)py";

std::string experiment(const std::string& script, const std::string& source_line, const std::string& lrs = "[0.1, 0.01, 1.5]") {
  return "name: pytrain\n"
         "matrix:\n"
         "  lr: " + lrs + "\n"
         "env:\n"
         "  HF_TOKEN: hf_evidence_marker_4711\n"
         "workload:\n"
         "  command: python3 " + script + " --lr {{lr}}\n"
         "metrics:\n"
         "  - name: throughput\n"
         "    better: higher\n"
         "    regex: 'throughput: (?<value>[0-9.]+)'\n" + source_line;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a Python script's failures show its own words in run, show and the report") {
  Sandbox box;
  const std::string script = box.write("train.py", kTrain);
  box.write("exp.yaml", experiment(script, ""));
  const auto run = box.sweep({"run", "exp.yaml", "--label", "py", "--jobs", "1"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(has(run.out, "3 runs planned, 0 succeeded, 3 failed"));
  CHECK(has(run.out, "why they failed (2 causes):"));
  // The two runs that logged their throughput on stderr: one cause, its rule, the other stream, the fix.
  CHECK(has(run.out, "  2 runs: required metric not found: throughput\n"));
  CHECK(has(run.out, "the regex rule \"throughput\" at exp.yaml:9:"));
  CHECK(has(run.out, "it matches 1 time on stderr (Python's logging"));
  CHECK(has(run.out, "to change: give the rule \"source: stderr\" (or \"source: both\")"));
  CHECK(has(run.out, "    | INFO:root:throughput: 812.5 samples/s\n"));
  // The crash: its traceback's last lines, the secret it printed masked.
  CHECK(has(run.out, "  1 run: exited with code 1 (expected 0)\n"));
  CHECK(has(run.out, "    | Traceback (most recent call last):\n"));
  CHECK(has(run.out, "    | ValueError: learning rate 1.5 diverged: loss is nan (token ***)\n"));
  CHECK_FALSE(has(run.out, "hf_evidence_marker_4711"));
  // Each cause's evidence once.
  CHECK(run.out.find("812.5 samples/s") == run.out.rfind("812.5 samples/s"));
  // The next command.
  CHECK(has(run.out, "next: sweep show py   (the first failed run's output: "));
  CHECK(has(run.out, "/stderr)\n"));
  CHECK(has(run.out, "      a metric rule fixed: sweep reparse py --from <the fixed experiment file> (reads the stored "
                     "logs again, runs nothing)\n"));

  const auto show = box.sweep({"show", "py"});
  INFO(show.out << show.err);
  CHECK(show.exit_code == 0);
  CHECK(has(show.out, "exit_code: exited with code 1 (expected 0) ("));
  CHECK(has(show.out, "ValueError: learning rate 1.5 diverged: loss is nan (token ***)"));
  CHECK(has(show.out, "it matches 1 time on stderr"));

  const auto report = box.sweep({"report", "py", "--stdout"});
  INFO(report.out << report.err);
  CHECK(has(report.out, "## Failed runs"));
  CHECK(has(report.out, "### Why they failed"));
  CHECK(has(report.out, "- 1 run: exited with code 1 (expected 0)"));
  CHECK(has(report.out, "ValueError: learning rate 1.5 diverged: loss is nan (token ***)"));
  CHECK(has(report.out, "- 2 runs: required metric not found: throughput"));
  REQUIRE(box.sweep({"report", "py"}).exit_code == 0);
  const std::string html = read_file(box.path("reports/py/report.html"));
  CHECK(has(html, "<summary>last lines of stderr</summary><pre>"));
  CHECK(has(html, "ValueError: learning rate 1.5 diverged: loss is nan (token ***)"));
  CHECK(shell("grep -rl hf_evidence_marker_4711 '" + box.path("reports") + "' '" + box.path("results") + "'/sweep.db* || true").out.empty());
}

TEST_CASE("source: both reads the metric that logging printed, and run says to report next") {
  Sandbox box;
  const std::string script = box.write("train.py", kTrain);
  box.write("exp.yaml", experiment(script, "    source: both\n", "[0.1, 0.01]"));
  const auto run = box.sweep({"run", "exp.yaml", "--label", "fixed", "--jobs", "1"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  CHECK(has(run.out, "2 runs planned, 2 succeeded, 0 failed"));
  CHECK_FALSE(has(run.out, "why they failed"));
  CHECK(has(run.out, "next: sweep report fixed\n"));
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'throughput' AND value = 812.5") == 2);
}

TEST_CASE("a script that is not there: the interpreter's own message, once for all runs") {
  Sandbox box;
  box.write("exp.yaml", experiment("train.py", ""));  // relative: the run directory has no train.py
  const std::string db = box.path("elsewhere.db");
  const auto run = box.sweep({"run", "exp.yaml", "--label", "nofile", "--jobs", "1", "--db", db});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(has(run.out, "why they failed:\n  3 runs: exited with code 2 (expected 0)\n    first: point "));
  CHECK(has(run.out, "can't open file"));
  CHECK(has(run.out, "train.py"));
  // The next command names the database it was given, and works as printed.
  CHECK(has(run.out, "next: sweep show nofile --db " + db + "   ("));
  CHECK(has(run.out, "      the cause fixed: sweep rerun nofile --db " + db + " (runs the failed runs again)\n"));
  const auto show = box.sweep({"show", "nofile", "--db", db});
  CHECK(show.exit_code == 0);
  CHECK(has(show.out, "can't open file"));
}

TEST_CASE("a tail with terminal escapes, backtick fences and HTML stays text in every sink") {
  Sandbox box;
  box.write("hostile.yaml", "name: hostile\nmatrix: {n: [1]}\nworkload:\n  command: |\n"
                            "    printf 'ok\\n\\033[2J\\033]0;owned\\007 ```\\n</pre><script>alert(1)</script>\\n' >&2; exit 4\n");
  const auto run = box.sweep({"run", "hostile.yaml", "--label", "h"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(has(run.out, "    | \\x1b[2J\\x1b]0;owned\\x07 ```\n"));
  CHECK_FALSE(has(run.out, "\x1b"));
  const auto md = box.sweep({"report", "h", "--stdout"});
  CHECK(has(md.out, "  ````text\n"));  // a fence longer than the output's own ```
  CHECK_FALSE(has(md.out, "\x1b"));
  REQUIRE(box.sweep({"report", "h"}).exit_code == 0);
  const std::string html = read_file(box.path("reports/h/report.html"));
  CHECK(has(html, "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
  CHECK_FALSE(has(html, "<script>alert"));
  CHECK_FALSE(has(html, "\x1b"));
}

TEST_CASE("nightly prints why a night's runs failed, in the program's own words") {
  Sandbox box;
  const std::string script = box.write("train.py", kTrain);
  box.write("exp.yaml", experiment(script, "    source: both\n", "[1.5, 2.5]"));
  const auto night = box.sweep({"nightly", "exp.yaml", "--date", "2026-06-01", "--no-figures"});
  INFO(night.out << night.err);
  CHECK(night.exit_code == 8);
  CHECK(has(night.out, "why they failed:\n  2 runs: exited with code 1 (expected 0)\n"));
  CHECK(has(night.out, "    | ValueError: learning rate 1.5 diverged: loss is nan (token ***)\n"));
  CHECK_FALSE(has(night.out, "learning rate 2.5"));  // one cause, shown once
}
