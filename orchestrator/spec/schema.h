#pragma once
// A JSON Schema (draft-07) of the experiment format, for editors (VS Code's YAML extension through a
// `# yaml-language-server: $schema=...` line) and other tools. Pure.
//
// Contract: the loader (spec/load.h) stays the authority. The schema refuses only what the loader
// refuses too (unknown keys, wrong shapes, values outside a fixed table), and never a valid
// experiment; what needs the loader (expressions, names across sections, templates) it leaves open.
// The committed schema/experiment.schema.json is this function's output (an e2e test compares them).
#include <string>

namespace sweep::spec {

/// The schema as pretty-printed JSON text ending in a newline; the same text on every call.
std::string experiment_schema();

}  // namespace sweep::spec
