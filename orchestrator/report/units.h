#pragma once
// Units of metrics and the conversions between them (docs/reports.md, "Units and scale"): one table of
// unit families (bytes with SI and IEC prefixes and bits, time, tokens, samples) and rates, a quantity
// over a time ("GB/s", "ktokens/s"). Converting a metric's statistics to another unit or by a factor is
// one function, used by declared columns and by a join's carried metrics. Pure.
#include <string>
#include <string_view>

#include "report/campaign_data.h"

namespace sweep::report {

/// The factor that turns a value in unit `from` into unit `to`: 8 for GB/s to Gb/s, 1e-6 for us to s,
/// 1 when they are equal. Error(usage) when either is not in the table (the message lists every unit)
/// or when they measure different things (s to GB: the message lists the units `from` converts to).
double conversion_factor(std::string_view from, std::string_view to);

/// The units `unit` converts to, comma-separated ("ns, us, µs, ms, s, min, h" for "ms"); every unit of
/// the table, by family, when `unit` is not in it.
std::string compatible_units(std::string_view unit);

/// `m` with every value multiplied by `factor` (> 0) and the unit `unit`: the mean, sd, interval,
/// quantiles, extremes and per-index summaries scale alike, since they are linear in the values; n, the
/// CV, the outliers (indices) and `better` stay.
MetricStats scaled_stats(const MetricStats& m, double factor, std::string unit);

}  // namespace sweep::report
