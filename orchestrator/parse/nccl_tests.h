#pragma once
// The built-in parser `nccl-tests`: the result tables of all_reduce_perf, all_gather_perf,
// reduce_scatter_perf, broadcast_perf, alltoall_perf, sendrecv_perf and the other nccl-tests programs
// (metric names in docs/metrics-format.md, "Built-in parsers"). Internal to parse/. Pure.
#include <string_view>

#include "parse/collector.h"

namespace sweep::parse {

/// Reads every result table of `text` (the source named `source`) into `out`. Columns are found by the
/// table's header line, so layouts with or without redop/root, `error` instead of `#wrong`, and the
/// per-iteration or timestamp columns of newer versions all read. Each row gives one observation per
/// column with the row number (0-based, counted over the whole source) as index; each table then gives
/// busbw_avg, out_of_bounds, busbw_peak and busbw_peak_size_bytes with the table number as index.
/// Lines tagged by srun --label or mpirun --tag-output read like untagged ones; when several ranks print
/// a table, only the lines of the owner chosen by table_owner() (parse/tagged_lines.h) are read. Damaged
/// input gives warnings naming the line; this never throws except for resource exhaustion.
void parse_nccl_tests(std::string_view source, std::string_view text, Collector& out);

}  // namespace sweep::parse
