#pragma once
// Loading and validating experiment files (the only user of yaml-cpp). All errors are
// Error(invalid_experiment) with file:line:column and what was expected; nothing is written anywhere.
#include <string>
#include <vector>

#include "spec/experiment.h"

namespace sweep::spec {

/// A `--set key=value` override. `key` is a matrix key (replaces its list by the single value) or a
/// top-level scalar (`repetitions`, `executor`, `name`). `value` is parsed as a YAML scalar.
struct Override {
  std::string key;
  std::string value;
};

/// Reads and validates the experiment at `path`. Throws Error(not_found/io) if it cannot be read.
Experiment load_file(const std::string& path, const std::vector<Override>& overrides = {});

/// Validates experiment `text` as if read from `path`.
Experiment load_text(const std::string& text, const std::string& path,
                     const std::vector<Override>& overrides = {});

/// The stored form of overrides (campaigns.overrides): one "key=value" line each, in order.
std::string overrides_text(const std::vector<Override>& overrides);
std::vector<Override> parse_overrides_text(const std::string& text);

/// A campaign's experiment as it ran: its stored text with its stored overrides (overrides_text).
Experiment load_stored(const std::string& text, const std::string& path, const std::string& overrides);

}  // namespace sweep::spec
