#pragma once
// The starting points of `sweep init`: commented experiments kept as data files under
// templates/init/<name>.yaml (installed with sweep's templates), and the filling-in of the few places
// that depend on where the experiment is written. Pure.
#include <span>
#include <string>
#include <string_view>

namespace sweep::spec {

struct Starter {
  std::string_view name;      // --template <name>; the file templates/init/<name>.yaml
  std::string_view summary;   // one line for --help
};

/// python (the default), torchrun-slurm, collbench, trainbench.
std::span<const Starter> starters();

/// Where the written experiment lives, for the placeholders of a starter's text.
struct StarterPlaces {
  std::string file;    // the experiment as the user named it (@file@ in the "Next:" comments)
  std::string schema;  // the JSON Schema file's path, or "" when there is none
};

/// The starter `text` with its placeholders filled in: `@schema@` (a line of its own) becomes the
/// `# yaml-language-server: $schema=<schema>` line, or nothing when `schema` is empty; `@file@` the
/// file as named, shell-quoted when it holds anything but `A-Z a-z 0-9 _ . / + - @ % , :`.
std::string fill_starter(std::string_view text, const StarterPlaces& places);

}  // namespace sweep::spec
