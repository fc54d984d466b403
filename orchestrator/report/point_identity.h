#pragma once
// What "the same point" is in two campaigns, or in a series of nights: one rule shared by `sweep
// compare`, `sweep nightly` (through the comparison) and the history of the nights (docs/statistics.md).
// Pure.
//
// A parameter tells points apart when it takes more than one value over all the points that have it.
// A parameter with one value wherever it appears (the same on both sides, or added on one side with a
// single value, as `steps: [1000]`) does not split a point; derived values never do, they follow from
// the parameters. Two campaigns line up when every parameter that tells points apart appears on both
// sides and no one-valued parameter changed its value; otherwise align() names what differs.
#include <string>
#include <utility>
#include <vector>

#include "report/campaign_data.h"

namespace sweep::report {

struct PointIdentity {
  std::vector<std::string> params;    // the parameters that tell points apart, in the order first seen
  std::vector<std::string> constant;  // parameters with one value wherever they appear: not part of identity
};

/// The rule over every point of `groups`, leaving out the parameter named `ignore` (the history's night).
PointIdentity point_identity(const std::vector<const std::vector<PointResult>*>& groups, const std::string& ignore = "");

/// "batch=8 nodes=2": the point's values of `identity.params`, those it has, in that order.
std::string identity_key(const store::PointRecord& p, const PointIdentity& identity);

struct Alignment {
  PointIdentity identity;                // what the points are matched by
  std::vector<std::string> differences;  // sentences: why the campaigns do not line up; empty when they do
};

/// The identity of a baseline's and a candidate's points, and what differs between them: a parameter
/// that tells points apart on one side only ("the baseline has axis `batch`, the candidate `batch_size`"),
/// or a one-valued parameter whose value changed ("`steps` is 1000 in the baseline, 2000 in the
/// candidate"). The parameters that differ are left out of `identity.params`, so a caller that accepts
/// the differences matches by the rest.
Alignment align(const std::vector<PointResult>& baseline, const std::vector<PointResult>& candidate);

/// Renames the parameters of `points` by `map` (old name, new name): the user's `--map old=new`.
/// Error(usage) for a name no point has, or a new name that a point has already.
void rename_params(std::vector<store::PointRecord>& points, const std::vector<std::pair<std::string, std::string>>& map);

}  // namespace sweep::report
