// Issue 32, items 1 and 6: nothing a workload prints or a database holds is ever code in a report's
// sinks (gnuplot, file names, Markdown, CSV, the terminal), and concurrent reports never collide.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// hostile.yaml: two points (a parameter named `v`, the export's format marker), whose workload prints
/// metric lines named with a newline and a gnuplot command, a '/', ESC, HTML and a spreadsheet formula.
void write_hostile_experiment(const Sandbox& box, const std::string& canary) {
  box.write("hostile.sh", "#!/bin/sh\ncat <<'EOF'\n"
                          "{\"v\": 1, \"metric\": \"m\\nsystem(\\\"touch " + canary + "\\\")\\n#\", \"value\": 1}\n"
                          "{\"v\": 1, \"metric\": \"esc\\u001b[31mred\", \"value\": 3}\n"
                          "EOF\n"
                          "echo '{\"v\": 1, \"metric\": \"a/b\", \"value\": '$1'}'\n"
                          "echo '{\"v\": 1, \"metric\": \"<script>alert(1)</script>\", \"value\": '$1'}'\n"
                          "echo '{\"v\": 1, \"metric\": \"=1+1\", \"value\": '$1'}'\n"
                          "echo '{\"v\": 1, \"metric\": \"ok\", \"value\": '$1'}'\n");
  box.write("hostile.yaml", "name: hostile\ntelemetry: false\nmatrix:\n  v: [1, 2]\nrepetitions: 2\n"
                            "workload:\n  command: sh " + box.path("hostile.sh") + " {{v}}\n");
}

/// What a database someone sent may hold: metric names that ingest would have refused.
void plant_names(const Sandbox& box, const std::string& canary) {
  SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
  db.exec("UPDATE metrics SET name = 'n' || char(10) || 'system(\"touch " + canary + "\")' || char(10) || '#' "
          "WHERE name = 'ok'");
  db.exec("INSERT INTO metrics (run_id, attempt, name, idx, value) SELECT run_id, attempt, 'e' || char(27) || "
          "'[2Jx\\', idx, value FROM metrics WHERE name = 'a/b'");
}

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (fs::is_regular_file(e.symlink_status())) out.push_back(e.path());
  return out;
}

bool has_control(const std::string& text, bool allow_lines) {
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (allow_lines && (c == '\n' || c == '\t')) continue;
    if (b < 0x20 || b == 0x7f) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("hostile metric names never run in gnuplot nor break a report") {
  Sandbox box;
  const std::string canary = box.path("CANARY");
  write_hostile_experiment(box, canary);
  const auto run = box.sweep({"run", "hostile.yaml", "--label", "h"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // Ingest refused the names with control characters, with a warning in the run directory.
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name LIKE 'm%' OR name LIKE 'esc%'") == 0);
  CHECK(scalar(db, "SELECT count(*) FROM metrics WHERE name = 'a/b'") == 4);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'ingest_warnings' AND value = '2'") == 4);
  plant_names(box, canary);

  const auto report = box.sweep({"report", "h"});
  INFO(report.out << report.err);
  CHECK(report.exit_code == 0);
  const fs::path dir = box.path("reports/h");
  std::size_t scripts = 0;
  for (const auto& f : files_under(dir)) {
    const std::string name = f.filename().string();
    CHECK_FALSE(has_control(name, false));
    if (f.extension() != ".gp") continue;
    ++scripts;
    CHECK_THAT(report.out, Catch::Contains("wrote reports/h/figures/" + name + "\n"));
    CHECK_FALSE(has_control(read_file(f.string()), true));
    CHECK(fs::exists(fs::path(f).replace_extension(".svg")));
    // Safe to rerun by hand.
    const auto again = shell("cd '" + f.parent_path().string() + "' && gnuplot '" + name + "' 2>&1");
    INFO(again.out);
    CHECK(again.exit_code == 0);
  }
  CHECK(scripts == 5);  // a/b, <script>, =1+1, the planted newline name and the planted ESC name
  CHECK_FALSE(fs::exists(canary));

  const std::string md = read_file(box.path("reports/h/report.md"));
  CHECK_THAT(md, !Catch::Contains("<script>") && Catch::Contains("&lt;script&gt;"));
  INFO(md);
  CHECK_FALSE(has_control(md, true));
  CHECK_THAT(read_file(box.path("reports/h/report.csv")), Catch::Contains("'=1+1 mean"));
  CHECK_FALSE(has_control(read_file(box.path("reports/h/report.tex")), true));

  const auto printed = box.sweep({"report", "h", "--no-figures", "--stdout", "--format", "csv"});
  CHECK(printed.exit_code == 0);
  CHECK_FALSE(has_control(printed.out, true));
  CHECK_THAT(printed.out, Catch::Contains("e\\x1b[2J"));

  for (const char* command : {"show", "status", "compare"}) {
    const auto shown = box.sweep(command == std::string("compare") ? std::vector<std::string>{command, "h", "h"}
                                                                   : std::vector<std::string>{command, "h"});
    INFO(command << ": " << shown.out << shown.err);
    CHECK_FALSE(has_control(shown.out, true));
  }

  // In the JSON-lines export the parameter `v` cannot overwrite the format marker.
  const auto exported = box.sweep({"export", "h", "--format", "jsonl"});
  REQUIRE(exported.exit_code == 0);
  CHECK_THAT(exported.out, Catch::StartsWith("{\"v\": 3,") && Catch::Contains("\"param_v\": 2"));
  CHECK_FALSE(has_control(exported.out, true));
}

TEST_CASE("nightly reports hostile metric names and exits 6 when a figure is not drawn") {
  Sandbox box;
  const std::string canary = box.path("CANARY");
  write_hostile_experiment(box, canary);
  const auto first = box.sweep({"nightly", "hostile.yaml", "--date", "2026-01-01"});
  INFO(first.out << first.err);
  CHECK(first.exit_code == 0);
  const std::string dir = box.path("reports/nightly-hostile-2026-01-01");
  for (const char* f : {"report.md", "report.html", "report.json", "report.tex", "report.csv"})
    CHECK(fs::exists(dir + "/" + f));
  CHECK_FALSE(fs::exists(dir + "/figures/default-a"));  // the name's '/' is no directory: its file name is hashed
  std::size_t svgs = 0;
  for (const auto& f : files_under(dir)) svgs += f.extension() == ".svg";
  CHECK(svgs == 8);  // a default and a trend figure each of a/b, <script>, =1+1 and ok
  CHECK_FALSE(fs::exists(canary));

  // A gnuplot that fails: the night passes its gate, but its report lacks figures.
  box.write("bin/gnuplot", "#!/bin/sh\necho broken >&2\nexit 3\n");
  fs::permissions(box.path("bin/gnuplot"), fs::perms::owner_all);
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", (box.path("bin") + ":" + path).c_str(), 1);
  const auto second = box.sweep({"nightly", "hostile.yaml", "--date", "2026-01-02"});
  ::setenv("PATH", path.c_str(), 1);
  INFO(second.out << second.err);
  CHECK(second.exit_code == 6);
  CHECK_THAT(second.out, Catch::Contains("figure not drawn: default-a/b: gnuplot exited with 3"));
}

TEST_CASE("a % in a parameter value is text in the figures of sweep report and sweep nightly, never a gnuplot format") {
  Sandbox box;
  box.write("pct.yaml", "name: pct\ntelemetry: false\nmatrix:\n  load: [\"10%\", \"%.999999999f\"]\nworkload:\n"
                        "  command: >-\n    echo '{\"v\": 1, \"metric\": \"time\", \"value\": 1.5, \"unit\": \"s\"}'\n");
  REQUIRE(box.sweep({"run", "pct.yaml", "--label", "p"}).exit_code == 0);
  const auto report = box.sweep({"report", "p"});
  INFO(report.out << report.err);
  CHECK(report.exit_code == 0);
  std::string svgs;
  for (const auto& f : files_under(box.path("reports/p/figures")))
    if (f.extension() == ".svg") svgs += read_file(f.string());
  CHECK_THAT(svgs, Catch::Contains(">10%<") && Catch::Contains(">%.999999999f<"));
  const auto night = box.sweep({"nightly", "pct.yaml", "--date", "2026-01-01"});
  INFO(night.out << night.err);
  CHECK(night.exit_code == 0);
  CHECK_THAT(night.out, !Catch::Contains("figure not drawn"));
}

TEST_CASE("an error that names a hostile label prints its control characters as visible text") {
  Sandbox box;
  box.write("t.yaml", "name: t\nmatrix: {n: [1]}\nworkload: {command: 'true'}\ntelemetry: false\n");
  REQUIRE(box.sweep({"run", "t.yaml", "--label", "t"}).exit_code == 0);  // a database to look in
  const std::string label = "x\x1b]0;owned\x07\ry";
  const auto r = box.sweep({"show", label});
  CHECK(r.exit_code == 4);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\r') == std::string::npos);
  CHECK_THAT(r.err, Catch::Contains("x\\x1b]0;owned\\x07\\x0dy"));
}

TEST_CASE("concurrent reports of one campaign all succeed and a planted temporary is not followed") {
  Sandbox box;
  write_speed_experiment(box, 2);
  box.write("shift-1.txt", "0");
  box.write("shift-2.txt", "0");
  REQUIRE(box.sweep({"run", "speed.yaml", "--label", "c"}).exit_code == 0);
  REQUIRE(box.sweep({"report", "c", "--no-figures"}).exit_code == 0);
  const std::string victim = box.write("victim.txt", "private\n");
  fs::create_symlink(victim, box.path("reports/c/report.md.tmp"));
  for (int trial = 0; trial < 5; ++trial) {
    std::vector<int> pids;
    for (int i = 0; i < 4; ++i) pids.push_back(box.spawn_sweep({"report", "c"}));
    for (const int pid : pids) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      INFO("trial " << trial << ": " << read_file(box.path(".sweep.bg.err")));
      CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
  }
  CHECK(read_file(victim) == "private\n");
  CHECK(fs::is_symlink(box.path("reports/c/report.md.tmp")));
  for (const auto& f : files_under(box.path("reports/c")))
    CHECK(f.filename().string().find(".tmp") == std::string::npos);  // no temporary left behind
}
