#pragma once
// What Slurm's accounting says a job used and was given (`sacct -n -P --format=<kSacctUsageFormat>`,
// the step records: without -X), read into the scheduler seam's sched::JobUsage. Pure parsing.
//
// Per allocation (the line without a '.' in its JobID) and its steps ("123_4.batch", "123_4.0",
// "123_4.extern"): CPU time is the allocation's TotalCPU (Slurm sums its steps), else the sum of its
// steps'; MaxRSS is the largest over the steps (the allocation's own field is empty); energy is the
// allocation's ConsumedEnergyRaw, else its steps' summed, else TRESUsageInTot's `energy=`, absent when 0
// (no energy plugin). The request (ReqMem, Timelimit, AllocCPUS, AllocTRES's gres/gpu) comes from the
// allocation's line.
#include <optional>
#include <string_view>
#include <vector>

#include "sched/usage.h"

namespace sweep::slurm {

/// The columns sacct is asked for, in order, for parse_sacct_usage.
inline constexpr std::string_view kSacctUsageFormat =
    "JobID,ElapsedRaw,TotalCPU,MaxRSS,ConsumedEnergyRaw,TRESUsageInTot,ReqMem,AllocCPUS,AllocTRES,Timelimit";

/// One JobUsage per allocation in the output, in order of first appearance; lines of another shape are
/// skipped, as are pending array ranges ("123_[4-9]").
std::vector<sched::JobUsage> parse_sacct_usage(std::string_view text);

/// MiB in a Slurm size such as MaxRSS's "221436K", "12M", "1.5G" (binary units K, M, G, T, P; a bare
/// number is bytes); nullopt when empty or malformed.
std::optional<double> slurm_size_mib(std::string_view text);

/// Seconds in TotalCPU's notation "[D-][HH:]MM:SS[.mmm]"; nullopt when malformed.
std::optional<double> cpu_duration_s(std::string_view text);

}  // namespace sweep::slurm
