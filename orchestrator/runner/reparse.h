#pragma once
// `sweep reparse <label> [--from exp.yaml]`: every stored run's latest attempt read again from its run
// directory with the campaign's metric rules (or a corrected `metrics:` section), its values replaced
// in one transaction, all or nothing (docs/campaigns.md, "Fixing a campaign").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "exec/executor.h"
#include "store/records.h"

namespace sweep::runner {

struct ReparseOptions {
  std::string db_path;
  std::string label;
  std::string from_path;  // "" = the stored experiment's rules
};

struct ReparseSummary {
  std::string label;
  std::size_t runs_read = 0;           // ended runs whose logs were read again
  std::size_t runs_skipped = 0;        // pending or running runs, or runs without a run directory
  std::size_t values_before = 0, values_after = 0;
  std::size_t now_succeeded = 0;       // failed for a metric before, succeeded now
  std::size_t now_failed = 0;          // succeeded before, failed for a metric now
  std::size_t revision = 0;            // the rules' revision now stored: 1 + the reparses before
  std::string rules_hash;
  bool experiment_replaced = false;    // --from: its metrics section is now the stored experiment's
};

/// The outcome an attempt's `exit_status` file (format 1) records; nullopt when `text` is not one. Pure.
std::optional<exec::Outcome> parse_exit_status(std::string_view text);

/// Whether an attempt that ended as `run` did may be re-decided by reading its metrics again: it
/// succeeded, or failed for its metrics only (missing_metric, unreduced_metric, criterion). Pure.
bool decided_by_metrics(const store::RunRecord& run);

/// The stored replacement of `run`'s latest attempt from `fresh` (its output read again): the new
/// metrics and match counts, and the new verdict when decided_by_metrics(run). Pure.
store::ReparsedRun reparsed(const store::RunRecord& run, const store::AttemptResult& fresh);

/// Reads the campaign's logs again and replaces its values (Store::replace_results), recording a
/// change with the rules' hash. Refused (Error(usage)) while a controller drives the campaign, and,
/// for --from, when a section other than `metrics` differs from the stored experiment (naming them).
/// Nothing is written when anything fails.
ReparseSummary reparse_campaign(const ReparseOptions& options);

}  // namespace sweep::runner
