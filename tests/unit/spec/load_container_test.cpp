// `container`: the experiment's key and the site file's, their merge, and the errors with file:line:column.
#include <algorithm>
#include <fstream>

#include "load_helpers.h"
#include "spec/site.h"
#include "temp_dir.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load;
using spec_test::load_error;

namespace {

Site site_of(const TempDir& dir, const std::string& text) {
  std::ofstream(dir.file("site.yaml")) << text;
  return load_site(dir.file("site.yaml"));
}

std::string site_error(const std::string& text) {
  TempDir dir;
  try {
    site_of(dir, text);
  } catch (const Error& e) {
    const std::string what = e.what();
    return what.substr(what.find("site.yaml:"));
  }
  return "no error";
}

}  // namespace

TEST_CASE("container: every key is read, with its place, mounts split where written") {
  const Experiment e = load(kHead +
                            "container:\n"
                            "  runtime: apptainer\n"
                            "  image: \"/img/pytorch-{{batch}}.sif\"\n"
                            "  mounts: [/scratch, \"/data:/d:ro\", \"{{batch}}:/b\"]\n"
                            "  gpus: false\n"
                            "  env: {NCCL_DEBUG: INFO, N: \"{{batch}}\"}\n"
                            "  args: [--cleanenv]\n");
  const Container& c = e.container;
  CHECK(c.used());
  CHECK(c.runtime == "apptainer");
  CHECK(c.runtime_where.str() == "x.yaml:7:12");
  CHECK(c.image == "/img/pytorch-{{batch}}.sif");
  CHECK(c.image_where.str() == "x.yaml:8:11");
  REQUIRE(c.mounts.size() == 3);
  CHECK((c.mounts[0].source == "/scratch" && c.mounts[0].destination.empty() && !c.mounts[0].read_only));
  CHECK((c.mounts[1].source == "/data" && c.mounts[1].destination == "/d" && c.mounts[1].read_only));
  CHECK((c.mounts[2].source == "{{batch}}" && c.mounts[2].destination == "/b"));
  CHECK(c.gpus == false);
  REQUIRE(c.env.size() == 2);
  CHECK((c.env[1].name == "N" && c.env[1].value == "{{batch}}"));
  REQUIRE(c.args.size() == 1);
  CHECK(c.args[0].text == "--cleanenv");
  CHECK(!load(kHead).container.used());
  CHECK(!load(kHead).container.gpus);  // not given: the point decides
}

TEST_CASE("container: none, and errors naming file:line:column and what was expected") {
  CHECK(load(kHead + "container: none\n").container.none);
  CHECK(load_error(kHead + "container: off\n") ==
        "x.yaml:6:12: \"container\" must be none, or a map {runtime, image, mounts, gpus, env, args} "
        "(docs/containers.md), "
        "got \"off\"");
  CHECK(load_error(kHead + "container: {runtime: docker, image: x}\n") ==
        "x.yaml:6:22: unknown container runtime \"docker\" (available: apptainer, singularity, pyxis, podman, "
        "charliecloud)");
  CHECK(load_error(kHead + "container: {runtime: podman, imag: x}\n")
            .find("x.yaml:6:30: unknown key \"imag\" (did you mean \"image\"?)") == 0);
  CHECK(
      load_error(kHead + "container: {runtime: podman, image: x, mounts: [\"/a:/b:rw\"]}\n") ==
      "x.yaml:6:49: \"container.mounts[0]\" must be a mount SRC, SRC:DST or SRC:DST:ro (a template), got \"/a:/b:rw\"");
  // A relative source is a named volume to podman, a relative destination nowhere certain: refused.
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, mounts: [\"data:/data\"]}\n") ==
        "x.yaml:6:49: the mount's source \"data\" is not an absolute path (podman would take a relative source for "
        "a named volume; mounts are not shell-expanded, so ~ and $VARIABLES stay as written): write /path, or a "
        "parameter such as {{scratch}} that holds one");
  CHECK(load_error(kHead + "container: {runtime: apptainer, image: x, mounts: [\"/data:d\"]}\n")
            .find("x.yaml:6:52: the mount's destination \"d\" is not an absolute path") == 0);
  CHECK(load_error(kHead + "container: {runtime: apptainer, image: x, mounts: [\"$HOME/d\"]}\n")
            .find("x.yaml:6:52: the mount's source \"$HOME/d\" is not an absolute path") == 0);
  CHECK(load(kHead + "container: {runtime: podman, image: x, mounts: [\"/s/$USER:{{x}}\"]}\n").container.mounts.size() == 1);
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, mounts: \"/a\"}\n")
            .find("x.yaml:6:48: \"container.mounts\" must be a list") == 0);
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, gpus: yes}\n") ==
        "x.yaml:6:46: \"container.gpus\" must be true or false, got \"yes\"");
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, env: {SWEEP_X: 1}}\n") ==
        "x.yaml:6:46: \"container.env.SWEEP_X\": variables starting with SWEEP_ are set by sweep itself");
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, env: {HF_TOKEN: abc}}\n")
            .find("x.yaml:6:46: \"container.env.HF_TOKEN\" looks like a secret") == 0);
  CHECK(load_error(kHead + "container: {runtime: charliecloud, image: x, args: [\"--set-env=HF_TOKEN=abc\"]}\n")
            .find("x.yaml:6:54: container.args sets HF_TOKEN, which looks like a secret") == 0);
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, args: [-e, WANDB_API_KEY=abc]}\n")
            .find("x.yaml:6:51: container.args sets WANDB_API_KEY, which looks like a secret") == 0);
  CHECK(load_error(kHead + "container: {runtime: podman, image: x, args: [\"--authfile=/a\", -e, \"TOKEN_DIR=\"]}\n")
            == "no error");  // an option's own lower-case name, and no value: nothing secret
  CHECK(load_error(kHead + "container: {runtime: podman, image: \"\"}\n")
            .find("x.yaml:6:37: \"container.image\" must be an image") == 0);
}

TEST_CASE("container: a line break in the image, a mount, an env value or an argument is refused at its place") {
  // Each would write lines of its own into provenance/container or container_env (docs/containers.md).
  const std::string head = kHead + "container: {runtime: podman, image: ";
  CHECK(load_error(head + "\"/a\\nruntime=x\"}\n") ==
        "x.yaml:6:38: \"container.image\" holds a line break: a container value must be one line (it is written one "
        "to a line in the run's provenance)");
  CHECK(load_error(head + "x, mounts: [\"/a\\r/b\"]}\n").rfind("x.yaml:6:50: \"container.mounts[0]\" holds a line break", 0) == 0);
  CHECK(load_error(head + "x, env: {FOO: \"x\\nsweep-gpu-device\\nNCCL_NET=IB\"}}\n")
            .rfind("x.yaml:6:52: \"container.env.FOO\" holds a line break", 0) == 0);
  CHECK(load_error(head + "x, args: [\"-e\", \"A=b\\nc\"]}\n").rfind("x.yaml:6:54: \"container.args[1]\" holds a line break", 0) == 0);
  CHECK(load_error(kHead + "container:\n  runtime: podman\n  image: |\n    pt\n") ==
        "x.yaml:9:5: \"container.image\" holds a line break: a container value must be one line (it is written one "
        "to a line in the run's provenance)");  // a block scalar keeps its final line break
}

TEST_CASE("container: the site's are defaults, merged by the rule of docs/containers.md") {
  TempDir dir;
  const Site site = site_of(dir,
                            "format: 1\n"
                            "container:\n"
                            "  runtime: apptainer\n"
                            "  mounts: [/scratch]\n"
                            "  env: {NCCL_DEBUG: WARN, UCX_TLS: rc}\n"
                            "  args: [--cleanenv]\n"
                            "  gpus: true\n");
  Experiment e = load(
      kHead +
      "container:\n  image: /img/a.sif\n  mounts: [/data]\n  env: {NCCL_DEBUG: INFO}\n  args: [--writable-tmpfs]\n");
  apply_site(site, e);
  const Container& c = e.container;
  CHECK(c.runtime == "apptainer");
  CHECK(c.runtime_where.str() == dir.file("site.yaml") + ":3:12");
  CHECK(c.image == "/img/a.sif");
  CHECK(c.gpus == true);
  REQUIRE(c.mounts.size() == 2);
  CHECK((c.mounts[0].source == "/scratch" && c.mounts[1].source == "/data"));
  REQUIRE(c.env.size() == 2);
  CHECK((c.env[0].name == "UCX_TLS" && c.env[1].name == "NCCL_DEBUG" && c.env[1].value == "INFO"));
  REQUIRE(c.args.size() == 2);
  CHECK((c.args[0].text == "--cleanenv" && c.args[1].text == "--writable-tmpfs"));

  Experiment own = load(kHead + "container: {runtime: podman, image: img, gpus: false}\n");
  apply_site(site, own);
  CHECK((own.container.runtime == "podman" && own.container.gpus == false));

  Experiment off = load(kHead + "container: none\n");
  apply_site(site, off);
  CHECK(!off.container.used());

  Experiment without = load(kHead);
  apply_site(site, without);  // a runtime without an image: no container
  CHECK(!without.container.used());
}

TEST_CASE("container: an image without a runtime anywhere is an error at the image") {
  Experiment e = load(kHead + "container:\n  image: /img/a.sif\n");
  CHECK_THROWS_WITH(
      check_container_runtime(e.container),
      "x.yaml:7:10: container.image is given, but no container.runtime (in the experiment or the site file): "
      "name one of apptainer, singularity, pyxis, podman, charliecloud");
  CHECK(site_error("format: 1\ncontainer: none\n") ==
        "site.yaml:2:12: \"container\" must be a map {runtime, image, mounts, gpus, env, args} (docs/containers.md), "
        "got \"none\"");
}

TEST_CASE("container: sweep site lists each setting with where it came from") {
  TempDir dir;
  const Site site = site_of(dir, "format: 1\ncontainer: {runtime: apptainer, gpus: true, mounts: [\"/s:/s:ro\"]}\n");
  Experiment e = load(kHead + "container: {image: /img/a.sif, env: {V: 1}, args: [--cleanenv]}\n");
  apply_site(site, e);
  std::vector<std::string> lines;
  for (const Setting& s : effective_settings(site, &e))
    if (s.name.rfind("container", 0) == 0) lines.push_back(s.name + "=" + s.value + " " + s.origin);
  const std::string at = dir.file("site.yaml");
  CHECK(lines == std::vector<std::string>{
                     "container.runtime=apptainer site " + at + ":2:22",
                     "container.image=/img/a.sif experiment x.yaml:6:20", "container.gpus=true site " + at + ":2:39",
                     "container.mounts[1]=/s:/s:ro site " + at + ":2:55", "container.env.V=1 experiment x.yaml:6:41",
                     "container.args[1]=--cleanenv experiment x.yaml:6:52"});
  Experiment off = load(kHead + "container: none\n");
  apply_site(site, off);
  const auto settings = effective_settings(site, &off);
  CHECK(std::count_if(settings.begin(), settings.end(),
                      [](const Setting& s) { return s.name.rfind("container", 0) == 0; }) == 1);
  std::vector<std::string> site_only;
  for (const Setting& s : effective_settings(site, nullptr))
    if (s.name.rfind("container", 0) == 0) site_only.push_back(s.name);
  CHECK(site_only == std::vector<std::string>{"container.runtime", "container.gpus", "container.mounts[1]"});
}
