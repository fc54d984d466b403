// spec::fill_starter and the table of `sweep init`'s starting points.
#include "spec/starters.h"

#include <array>

namespace sweep::spec {
namespace {

constexpr std::array<Starter, 4> kStarters{{
    {"python", "your own Python script on this machine, over batch size and learning rate"},
    {"torchrun-slurm", "a PyTorch DDP script written for torchrun, on Slurm over 1 and 2 nodes"},
    {"collbench", "the bundled collective benchmark on Slurm: all-reduce bus bandwidth over sizes, backends, layouts"},
    {"trainbench", "the bundled training benchmark on Slurm: GPT-2 tiny over data-parallel ranks"},
}};

bool plain_word(std::string_view text) {
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    std::string_view("_./+-@%,:").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return !text.empty();
}

std::string shell_word(std::string_view text) {
  if (plain_word(text)) return std::string(text);
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

}  // namespace

std::span<const Starter> starters() { return kStarters; }

std::string fill_starter(std::string_view text, const StarterPlaces& places) {
  std::string out(text);
  replace_all(out, "@schema@\n", places.schema.empty() ? "" : "# yaml-language-server: $schema=" + places.schema + "\n");
  replace_all(out, "@file@", shell_word(places.file));
  return out;
}

}  // namespace sweep::spec
