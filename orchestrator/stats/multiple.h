#pragma once
// Multiple comparisons: a campaign comparison tests every point × metric at once, so with hundreds of
// pairs some p-values fall below alpha by chance alone. The p-values of a family are adjusted
// together (docs/statistics.md), and each verdict is judged again with its adjusted p. Pure.
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "stats/comparison.h"

namespace sweep::stats {

std::string_view name_of(Correction c);
/// "holm", "bh" or "none"; nullopt otherwise.
std::optional<Correction> parse_correction(std::string_view text);

/// The adjusted p-values, in the order of `p` (each in [0, 1]; NaN counts as 1).
std::vector<double> adjust(std::span<const double> p, Correction c);

/// Adjusts the Welch p-values of the comparisons that reached a significance decision (enough
/// repetitions on both sides) across the family by options.correction, stores each in `p_adjusted`, and judges each of them
/// again with it (rules of comparison.h). `better[i]` belongs to `family[i]`.
void correct(std::span<Comparison> family, std::span<const Better> better, const CompareOptions& options);

}  // namespace sweep::stats
