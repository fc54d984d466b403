#pragma once
// The default tables: the shapes of the source studies' tables (docs/reports.md#default-tables), for the
// metrics of the bundled workloads. A preset applies when the campaign has its metrics; columns for
// parameters the campaign lacks are left out, and parameters that vary but have no column are added
// so that no two rows look alike. Pure.
#include <vector>

#include "report/points_view.h"
#include "spec/report_spec.h"

namespace sweep::report {

/// The presets whose metrics the campaign has, none of them per message size (report/size_tables.h).
std::vector<spec::ReportTable> default_tables(const PointsView& points);

/// The most default figures a report draws (one per metric, in name order), and the most lines one
/// may hold: a campaign whose other varying parameters make more gets no default figure.
inline constexpr std::size_t kMaxDefaultFigures = 12;
inline constexpr std::size_t kMaxDefaultSeries = 12;

/// For a report that declares no figures: the size figure of metrics per message size (size_figure in
/// report/size_tables.h, unless its lines would be more than kMaxDefaultSeries); then, per metric that
/// is not per message size, the figure "default-<metric>" of its mean against
/// the first numeric parameter that varies (lines; a logarithmic x when its values span 100x or more),
/// one series per combination of the other varying parameters; bars against the first varying
/// parameter when none is numeric; none when no parameter varies or the lines would be more than
/// kMaxDefaultSeries. Pure.
std::vector<spec::ReportFigure> default_figures(const PointsView& points);

}  // namespace sweep::report
