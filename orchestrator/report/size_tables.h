#pragma once
// Metrics with one value per message size (collbench's, and those of the nccl-tests and OSU parsers:
// one row per size, each at its own index, with the size itself in `size_bytes`), and the default
// tables and figure a report without declared ones shows for them (docs/reports.md, "Metrics per
// message size"): a mean over sizes from 8 B to 8 GB means nothing, so they get one row per size. Pure.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/campaign_data.h"
#include "report/table.h"
#include "spec/report_spec.h"

namespace sweep::report {

// kSizeMetric and size_indexed_metrics: report/points_view.h (PointsView::size_indexed).

/// For every size-indexed metric but size_bytes, a table named "<metric>.by-size": one row per message
/// size (bytes, ascending; the union over the points), one column per point (labelled by the
/// parameters that vary, or by the metric when there is one point), each cell the metric's statistics
/// over the runs at that size; "–" where a point lacks the size.
std::vector<Table> size_tables(const PointsView& points);

/// The default figure of a campaign with size-indexed metrics, "default-<y>-by-size": y against
/// size_bytes on a logarithmic x axis, one line per combination of the varying parameters. y is the
/// first of busbw, bandwidth_MBps, algbw the campaign has per size, else the first of time_us,
/// latency_us; nullopt when it has none of them per size.
std::optional<spec::ReportFigure> size_figure(const PointsView& points);

}  // namespace sweep::report
