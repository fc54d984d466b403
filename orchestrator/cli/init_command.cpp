// sweep init [--template python|torchrun-slurm|collbench|trainbench] [FILE]
// Writes a commented experiment to start from (spec/starters.h); never overwrites anything.
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/command.h"
#include "spec/starters.h"
#include "util/error.h"
#include "util/safe_files.h"

namespace sweep::cli {
namespace {

namespace fs = std::filesystem;

std::string read_starter(const std::string& name) {
  const std::string path = default_template_dir() + "/init/" + name + ".yaml";
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::not_found, fmt::format("the starting point \"{}\" is missing: cannot read {}", name, path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The schema beside the templates (the source tree's schema/, an installed sweep's share/sweep/schema/).
std::string schema_path() {
  const fs::path path = fs::path(default_template_dir()) / ".." / "schema" / "experiment.schema.json";
  std::error_code ec;
  return fs::exists(path, ec) ? fs::weakly_canonical(path, ec).string() : "";
}

int write_starter(const std::string& name, const std::string& file) {
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() != fs::file_type::not_found)
    throw Error(ErrorKind::usage, fmt::format("{} already exists: sweep init never overwrites a file; name another, e.g. "
                                              "sweep init --template {} my-{}.yaml",
                                              file, name, name));
  const spec::StarterPlaces places{file, schema_path()};
  write_new_file(file, spec::fill_starter(read_starter(name), places));  // O_EXCL: a file made meanwhile stays
  fmt::print("wrote {} (template {}); check it with: sweep plan {}\n", file, name, file);
  return 0;
}

}  // namespace

void add_init(CLI::App& sub, Action& action) {
  struct Options {
    std::string name = "python", file = "experiment.yaml";
  };
  auto o = std::make_shared<Options>();
  std::vector<std::string> names;
  std::string help = "The starting point:";
  for (const spec::Starter& s : spec::starters()) {
    names.emplace_back(s.name);
    help += fmt::format("\n  {}: {}", s.name, s.summary);
  }
  sub.add_option("--template", o->name, help)->check(CLI::IsMember(names))->capture_default_str();
  sub.add_option("file", o->file, "The experiment to write; refused when it exists")->capture_default_str();
  sub.callback([o, &action] { action = [o] { return write_starter(o->name, o->file); }; });
}

}  // namespace sweep::cli
