// `sweep compare` of two real campaigns run in two Charliecloud directory images (busybox, built here):
// the job script's check records each image's tree hash (the bundled sweep-image-id, with the results
// root's cache that the campaigns share), and compare names the changed image next to its verdicts, in text, JSON and JUnit.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

/// A Charliecloud image of busybox (static) at `dir`, with the mount points ch-run needs and `extra`
/// written into /etc/release.
std::string busybox_image(const Sandbox& box, const std::string& name, const std::string& extra) {
  const fs::path img = box.path("images/" + name);
  for (const char* d : {"bin", "dev", "proc", "sys", "etc", "tmp", "mnt"}) fs::create_directories(img / d);
  fs::copy_file("/bin/busybox", img / "bin" / "busybox");
  for (const char* tool : {"sh", "echo"}) fs::create_symlink("busybox", img / "bin" / tool);
  std::ofstream(img / "etc" / "passwd") << "root:x:0:0::/:/bin/sh\n";
  std::ofstream(img / "etc" / "group") << "root:x:0:\n";
  std::ofstream(img / "etc" / "release") << extra;
  return img.string();
}

/// One point, 3 repetitions, run inside `image`; the metric line is printed by the container's shell.
std::string experiment(const std::string& image) {
  return "name: img\ntelemetry: false\nmatrix:\n  n: [1]\nrepetitions: 3\nworkload:\n  command: >-\n"
         "    echo \"{\\\"v\\\": 1, \\\"metric\\\": \\\"speed\\\", \\\"value\\\": $(( 1000 + {{repetition}} )), "
         "\\\"unit\\\": \\\"it/s\\\", \\\"better\\\": \\\"higher\\\"}\"\n"
         "container:\n  runtime: charliecloud\n  image: " + image + "\n  gpus: false\n";
}

}  // namespace

TEST_CASE("sweep compare names the container image two campaigns ran in, by its tree hash") {
  INFO("ch-run and busybox-static are installed by scripts/install-deps");
  REQUIRE(shell("command -v ch-run && test -x /bin/busybox").exit_code == 0);
  ::setenv("USER", "root", 0);  // ch-run as root needs USER
  Sandbox box;
  const std::string a = busybox_image(box, "a", "release a\n"), b = busybox_image(box, "b", "release b\n");
  const auto id_a = shell(std::string(SWEEP_IMAGE_ID_BIN) + " " + a), id_b = shell(std::string(SWEEP_IMAGE_ID_BIN) + " " + b);
  REQUIRE(id_a.exit_code == 0);
  REQUIRE(id_b.exit_code == 0);
  const std::string full_a = id_a.out.substr(0, id_a.out.find('\n')), full_b = id_b.out.substr(0, id_b.out.find('\n'));
  REQUIRE(full_a != full_b);
  for (const auto& [label, image] : {std::pair<std::string, std::string>{"a", a}, {"b", b}, {"a2", a}}) {
    const auto run = box.sweep({"run", box.write(label + ".yaml", experiment(image)), "--label", label});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
  }
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'container.image_id' AND value = '" + full_a + "'") == 6);
  CHECK(scalar(db, "SELECT count(*) FROM run_provenance WHERE key = 'container.image_id' AND value = '" + full_b + "'") == 3);

  const std::string line = "changed: container image " + a + " (" + full_a.substr(0, 19) + "\u2026) -> " + b + " (" +
                           full_b.substr(0, 19) + "\u2026)\n";
  const auto text = box.sweep({"compare", "a", "b"});
  INFO(text.out << text.err);
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("\n" + line) && Catch::Contains("b vs a: passed"));
  // The same image again: nothing changed, no line.
  const auto same = box.sweep({"compare", "a", "a2"});
  CHECK_THAT(same.out, !Catch::Contains("changed: container"));

  const auto json = box.sweep({"compare", "a", "b", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["version"] == 5);
  REQUIRE(doc["changed"].size() == 1);
  CHECK(doc["changed"][0]["baseline"][0]["container.image_id"] == full_a);
  CHECK(doc["changed"][0]["candidate"][0]["container.image"] == b);
  const auto junit = box.sweep({"compare", "a", "b", "--format", "junit"});
  CHECK_THAT(junit.out, Catch::Contains("<property name=\"changed\" value=\"container image " + a));
  // The results root's id cache, shared by the campaigns, answered every run of a2 (the image a ran in)
  // without reading the image again: each run's container_check.log has sweep-image-id --verbose's line.
  CHECK((fs::status(box.path("results/.sweep-image-ids")).permissions() & fs::perms::all) == fs::perms::owner_all);
  CHECK(!fs::exists(box.path("results/a/.sweep-image-ids")));
  int logs = 0;
  for (const auto& entry : fs::recursive_directory_iterator(box.path("results/a2"))) {
    if (entry.path().filename() != "container_check.log") continue;
    ++logs;
    INFO(entry.path());
    CHECK_THAT(read_file(entry.path().string()), Catch::Contains("sweep-image-id: content read: 0 bytes (cache: hit)\n"));
  }
  CHECK(logs == 3);
}

TEST_CASE("sweep nightly names an image rebuilt behind the same link, in its summary and nightly.txt") {
  REQUIRE(shell("command -v ch-run && test -x /bin/busybox").exit_code == 0);
  ::setenv("USER", "root", 0);
  Sandbox box;
  const std::string a = busybox_image(box, "build-1", "build 1\n"), b = busybox_image(box, "build-2", "build 2\n");
  const std::string current = box.path("images/current");
  fs::create_directory_symlink("build-1", current);
  box.write("exp.yaml", experiment(current));
  const auto first = box.sweep({"nightly", "exp.yaml", "--date", "2026-07-01", "--no-figures"});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  // The image is rebuilt: the link now names another tree (the path the runs record stays the same).
  fs::remove(current);
  fs::create_directory_symlink("build-2", current);
  const auto second = box.sweep({"nightly", "exp.yaml", "--date", "2026-07-02", "--no-figures"});
  INFO(second.out << second.err);
  REQUIRE(second.exit_code == 0);
  const std::string id_a = shell(std::string(SWEEP_IMAGE_ID_BIN) + " " + a).out.substr(0, 19);
  const std::string id_b = shell(std::string(SWEEP_IMAGE_ID_BIN) + " " + b).out.substr(0, 19);
  REQUIRE(id_a != id_b);
  const std::string line = "changed: container image " + current + " (" + id_a + "\u2026) -> " + current + " (" + id_b + "\u2026)";
  CHECK_THAT(second.out, Catch::Contains("  " + line + "\n"));
  CHECK_THAT(read_file(box.path("reports/nightly-img-2026-07-02/nightly.txt")), Catch::Contains("\n" + line + "\n"));
  // The report's verdict lists it after the rows that need attention (Markdown: ">" as "&gt;").
  CHECK_THAT(read_file(box.path("reports/nightly-img-2026-07-02/report.md")),
             Catch::Contains("- changed: container image " + current + " (" + id_a + "\u2026) -&gt; " + current));
}
