#include "spec/bundled.h"

#include <array>

#include "spec/trainbench_args.h"

namespace sweep::spec {
namespace {

// collbench's options (workloads/collbench/options.cpp).
constexpr std::array<BundledOption, 16> kCollbenchOptions{{
    {"op"}, {"backend"}, {"dtype"}, {"redop"}, {"min-bytes"}, {"max-bytes"}, {"factor"}, {"warmup"},
    {"iters"}, {"inplace", true}, {"check", true}, {"root"}, {"headline"}, {"params"}, {"timeout"},
    {"rendezvous"}}};

// trainbench's options (workloads/trainbench/options.cpp).
constexpr std::array<BundledOption, 29> kTrainbenchOptions{{
    {"model"}, {"layers"}, {"width"}, {"heads"}, {"seq"}, {"vocab"}, {"dp"}, {"tp"}, {"pp"}, {"microbatches"},
    {"schedule"}, {"dtype"}, {"grad-dtype"}, {"backend"}, {"device"}, {"batch"}, {"steps"}, {"epochs"},
    {"steps-per-epoch"}, {"warmup"}, {"seed"}, {"lr"}, {"bucket-mb"}, {"overlap", true}, {"data"}, {"threads"},
    {"peak-tflops"}, {"timeout"}, {"rendezvous"}}};

constexpr std::array<std::string_view, 3> kTrainbenchLayout{"dp", "tp", "pp"};

constexpr std::array<BundledProgram, 2> kPrograms{
    {{"collbench", kCollbenchOptions, {}, nullptr},
     {"trainbench", kTrainbenchOptions, kTrainbenchLayout, &trainbench_refusals}}};

std::string quote_literal(std::string_view text) {
  if (text.empty()) return "";
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Literal runs quoted, `{{...}}` / `{{{...}}}` tags kept verbatim.
std::string template_word(std::string_view value) {
  if (value.empty()) return "''";
  std::string out;
  std::size_t pos = 0;
  while (pos < value.size()) {
    const std::size_t open = value.find("{{", pos);
    if (open == std::string_view::npos) break;
    const bool triple = value.substr(open, 3) == "{{{";
    const std::size_t close = value.find(triple ? "}}}" : "}}", open);
    if (close == std::string_view::npos) break;
    out += quote_literal(value.substr(pos, open - pos));
    const std::size_t end = close + (triple ? 3 : 2);
    out += value.substr(open, end - open);
    pos = end;
  }
  return out + quote_literal(value.substr(pos));
}

}  // namespace

std::span<const BundledProgram> bundled_programs() { return kPrograms; }

const BundledProgram* find_bundled(std::string_view name) {
  for (const auto& p : kPrograms)
    if (p.name == name) return &p;
  return nullptr;
}

std::string render_bundled_args(const std::vector<BundledArg>& args) {
  std::string out;
  for (const BundledArg& a : args) {
    if (!out.empty()) out += ' ';
    if (a.flag) {
      out += (*a.flag ? "--" : "--no-") + a.name;
      continue;
    }
    out += "--" + a.name + " " + template_word(a.value);
  }
  return out;
}

}  // namespace sweep::spec
