#pragma once
// sbatch's time notation, read in one place: `resources.time` at load and after rendering at each
// point (runner::CampaignPlan), the local executor's per-run limit, and `escalate`'s base and bound.
// Pure.
//
// Formats (sbatch(1) --time): "minutes", "minutes:seconds", "hours:minutes:seconds", "days-hours",
// "days-hours:minutes", "days-hours:minutes:seconds", and UNLIMITED or INFINITE (any case) for none.
// Every field is a non-negative integer; the leading field may be any size, the ones after it must be
// below 60 (minutes, seconds) or, after days, 24 (hours): "90:75" is refused, not read as 91:15 as
// Slurm would, because a field out of range is a typo far more often than a wish. Zero is refused (Slurm
// reads it as no limit: write UNLIMITED for that). Fractions ("1.5") are refused, as sbatch does.
#include <optional>
#include <string>
#include <string_view>

namespace sweep::spec {

inline constexpr std::string_view kTimeFormats = "minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED";

/// A time limit as read, or why the text is not one.
struct TimeLimit {
  std::optional<double> seconds;  // the limit; nullopt for UNLIMITED (and when `problem` is set)
  std::string problem;            // "" when the text is a time limit; else what follows its name in
                                  // an error: ` must be a time limit (...), got "abc"`,
                                  // `: seconds must be < 60 in "90:75"`, ...
  bool ok() const { return problem.empty(); }
  bool unlimited() const { return ok() && !seconds; }
};

/// Reads `text` in sbatch's time notation (the header's formats and rules).
TimeLimit parse_time_limit(std::string_view text);

/// The error message for a refused `text` named `name` ("resources.time"): `"name"` + the problem.
std::string time_limit_error(std::string_view name, const TimeLimit& limit);

/// Seconds as sbatch writes a time limit: "HH:MM:SS", or "D-HH:MM:SS" from a day on (rounded up to a
/// second, so never less than asked); parse_time_limit reads it back.
std::string slurm_time_text(double seconds);

}  // namespace sweep::spec
