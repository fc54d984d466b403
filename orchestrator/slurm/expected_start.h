#pragma once
// What `sbatch --test-only` says of a job it did not submit (docs/forecasts.md): "sbatch: Job 5 to
// start at 2026-11-27T12:16:24 using 1 processors on nodes n1 in partition debug". Pure.
#include <optional>
#include <string>
#include <string_view>

namespace sweep::slurm {

/// "2026-11-27T12:16:24 on n1 in partition debug" from sbatch's line (its stderr); nullopt when the
/// text has no such line.
std::optional<std::string> parse_test_only(std::string_view text);

}  // namespace sweep::slurm
