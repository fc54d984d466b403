// A container that cannot start, run by the real sweep on the local executor (docs/containers.md): a
// runtime that is not installed here (Apptainer: a real missing runtime) and a Charliecloud image path
// that does not exist (ch-run is installed). Each is its own failure class with the check's message,
// the workload never runs, setup lines run on the host before the check, and `retries` retries it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <SQLiteCpp/Statement.h>

#include "e2e/harness.h"

using namespace e2e;

namespace {

struct Attempt {
  std::string failure_class, reason;
  int exit_code = -1;
};

/// Every attempt of the campaign, in order.
std::vector<Attempt> attempts(const Sandbox& box) {
  auto db = box.db();
  SQLite::Statement q(db, "SELECT failure_class, failure_reason, exit_code FROM attempts ORDER BY run_id, attempt");
  std::vector<Attempt> out;
  while (q.executeStep())
    out.push_back({q.getColumn(0).getString(), q.getColumn(1).getString(), q.getColumn(2).getInt()});
  return out;
}

std::string experiment(const std::string& name, const std::string& container) {
  return "name: " + name + R"(
matrix:
  n: [1]
setup: ["echo setup ran on the host > {{run_dir}}/host-setup"]
retries: {CONTAINER_RUNTIME: 1}
workload:
  command: "echo workload ran"
telemetry: false
container:
)" + container;
}

}  // namespace

TEST_CASE("a container runtime that is not installed fails as container_runtime, the workload not run") {
  INFO("Apptainer is not packaged in Debian 12: it is not installed here");
  REQUIRE(shell("command -v apptainer").exit_code != 0);
  Sandbox box;
  const auto run =
      box.sweep({"run", box.write("app.yaml", experiment("app", "  runtime: apptainer\n  image: /img/pt.sif\n")),
                 "--label", "app"});
  INFO(run.out << run.err);
  CHECK(run.exit_code != 0);
  CHECK(run.out.find("the container runtime's program apptainer is not found on node ") != std::string::npos);
  const auto tried = attempts(box);
  REQUIRE(tried.size() == 2);  // retries: {CONTAINER_RUNTIME: 1}
  for (const Attempt& a : tried) {
    CHECK(a.failure_class == "container_runtime");
    CHECK(a.reason.rfind("the container runtime's program apptainer is not found on node ", 0) == 0);
    CHECK(a.exit_code == 127);
  }
  for (const auto& e : std::filesystem::directory_iterator(box.path("results/app"))) {
    if (!e.is_directory()) continue;
    CHECK(read_file((e.path() / "host-setup").string()) == "setup ran on the host\n");
    CHECK(read_file((e.path() / "stdout").string()).find("workload ran") == std::string::npos);
    CHECK(read_file((e.path() / "container_failed").string()).rfind("format=1\nclass=CONTAINER_RUNTIME\ntext=", 0) ==
          0);
  }
}

TEST_CASE("a Charliecloud image that is not there fails as container_image, with the check's message") {
  INFO("ch-run is installed by scripts/install-deps (Debian's charliecloud)");
  REQUIRE(shell("command -v ch-run").exit_code == 0);
  Sandbox box;
  const std::string image = box.path("images/missing-{{n}}");
  const auto run =
      box.sweep({"run", box.write("ch.yaml", experiment("ch", "  runtime: charliecloud\n  image: " + image + "\n")),
                 "--label", "ch"});
  INFO(run.out << run.err);
  CHECK(run.exit_code != 0);
  const auto tried = attempts(box);
  REQUIRE(tried.size() == 1);  // CONTAINER_IMAGE is not retried unless `retries` says so
  CHECK(tried[0].failure_class == "container_image");
  CHECK(tried[0].reason.rfind("the image " + box.path("images/missing-1") + " is not on node ", 0) == 0);
  CHECK(tried[0].reason.find(": no such file or directory (in ") != std::string::npos);
  CHECK(tried[0].exit_code == 2);
  auto db = box.db();
  // The runtime was found before the image was looked for: no provenance of a container that never ran.
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key LIKE 'container.%'") == 0);
  const auto show = box.sweep({"show", "ch"});
  INFO(show.out << show.err);
  CHECK(show.out.find("container_image") != std::string::npos);
}

TEST_CASE("sweep plan refuses a compound command with a container, naming its place and the way to write it") {
  Sandbox box;
  box.write("compound.yaml", "name: compound\nmatrix: {n: [1]}\n"
                             "container: {runtime: charliecloud, image: /images/none}\n"
                             "workload:\n  command: \"make && ./run {{n}}\"\n");
  const auto r = box.sweep({"plan", "compound.yaml"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("compound.yaml:5:13:") && Catch::Contains("holds \"&&\" outside quotes") &&
                        Catch::Contains("sh -c 'make && ./run'"));
  box.write("quoted.yaml", "name: quoted\nmatrix: {n: [1]}\n"
                           "container: {runtime: charliecloud, image: /images/none}\n"
                           "workload:\n  command: \"sh -c 'make && ./run {{n}}'\"\n");
  CHECK(box.sweep({"plan", "quoted.yaml"}).exit_code == 0);
}

TEST_CASE("sweep plan and sweep run refuse a working directory or run root the runtime cannot bind, leaving no campaign") {
  INFO("apptainer's --bind takes a path apart at ',' and ':'; before the fix sweep run created the campaign first");
  Sandbox box;
  std::filesystem::create_directories(box.path("a,b"));
  box.write("comma.yaml", "name: comma\nmatrix: {n: [1]}\nworkdir: \"" + box.path("a,b") +
                              "\"\ncontainer: {runtime: apptainer, image: /img/pt.sif}\n"
                              "workload:\n  command: \"echo {{n}}\"\n");
  const auto no_campaign = [&](const std::string& label) {
    CHECK(!std::filesystem::exists(box.path("results/" + label)));
    if (!std::filesystem::exists(box.path("results/sweep.db"))) return;
    auto db = box.db();
    CHECK(db.execAndGet("SELECT count(*) FROM campaigns").getInt() == 0);
    CHECK(db.execAndGet("SELECT count(*) FROM runs").getInt() == 0);
  };
  for (const std::string command : {"plan", "run"}) {
    const auto r = box.sweep({command, "comma.yaml", "--label", "comma"});
    INFO(command << ": " << r.out << r.err);
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("comma.yaml:4:12: apptainer cannot bind the path \"" + box.path("a,b") + "\""));
    no_campaign("comma");
  }
  // The run root: <results>/<label>, each run directory under it.
  box.write("plain.yaml", "name: plain\nmatrix: {n: [1]}\ncontainer: {runtime: apptainer, image: /img/pt.sif}\n"
                          "workload:\n  command: \"echo {{n}}\"\n");
  for (const std::string command : {"plan", "run"}) {
    const auto r = box.sweep({command, "plain.yaml", "--label", "plain", "--results", box.path("res:x")});
    INFO(command << ": " << r.out << r.err);
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("plain.yaml:3:12: apptainer cannot bind the path \"" + box.path("res:x/plain/")));
    CHECK(!std::filesystem::exists(box.path("res:x/plain")));
    CHECK(!std::filesystem::exists(box.path("res:x/sweep.db")));
  }
}
