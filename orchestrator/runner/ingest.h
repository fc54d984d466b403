#pragma once
// Turning a finished attempt (its executor outcome and run directory) into the result stored in the
// database: metrics extracted from its output, and a verdict with a failure class and reason.
#include <string>

#include "exec/executor.h"
#include "parse/extract.h"
#include "spec/experiment.h"
#include "store/records.h"
#include "util/failure_classes.h"

namespace sweep::runner {

/// The failure classes of a local run, stored in runs.failure_class (docs/database.md).

/// The largest part of an output file that is read for metrics; the rest is skipped with a warning.
inline constexpr std::size_t kMaxIngestBytes = 256u << 20;

/// Decides succeeded/failed from the outcome and the extracted metrics, in this order: timeout,
/// signal, exit code other than success.exit_code, a rule without `reduce` that matched more than once
/// (class unreduced_metric; its values are stored per index all the same), any required metric
/// missing, then success.where (class criterion). Every regex and json rule's match count becomes
/// provenance `matches.<metric>`. Pure.
store::AttemptResult judge(const exec::Outcome& outcome, const parse::Extraction& extraction,
                           const spec::Success& success);

/// Reads the attempt's output files from `run_dir`, extracts metrics, judges the attempt, and writes
/// `run_dir`/exit_status (format 1) and, when there were any, `run_dir`/ingest_warnings (removed when
/// there were none: a reparse's verdict replaces an earlier ingest's). With
/// `nic_counters` (runner/nic_sampling.h: nic_counters_on), adds nic_volume and nic_throughput from the
/// run's snapshot files (runner/nic_counters.h); without, it never lists the run directory for them.
/// With `telemetry` (the campaign's setting on), adds the run's telemetry metrics and provenance
/// (runner/telemetry_ingest.h), which never change the verdict.
store::AttemptResult ingest(const exec::Outcome& outcome, const std::string& run_dir,
                            const parse::Extractor& extractor, const spec::Success& success, bool nic_counters,
                            bool telemetry);

}  // namespace sweep::runner
