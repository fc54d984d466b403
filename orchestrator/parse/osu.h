#pragma once
// The built-in parser `osu`: the result tables of the OSU micro-benchmarks (osu_allreduce,
// osu_allgather, osu_bcast, osu_alltoall, osu_reduce_scatter, ..., osu_latency, osu_bw; metric names in
// docs/metrics-format.md, "Built-in parsers"). Internal to parse/. Pure.
#include <string_view>

#include "parse/collector.h"

namespace sweep::parse {

/// Reads every result table of `text` (the source named `source`) into `out`. Columns are mapped by the
/// names in the table's header line ("# Size  Avg Latency(us)  Min Latency(us) ..."); a column this
/// build does not know is skipped with one warning at its header. Each row gives one observation per
/// known column with the row number (0-based, counted over the whole source) as index. Launcher tags
/// and the choice of rank work as for nccl-tests (parse/tagged_lines.h). Damaged input gives warnings
/// naming the line; this never throws except for resource exhaustion.
void parse_osu(std::string_view source, std::string_view text, Collector& out);

}  // namespace sweep::parse
