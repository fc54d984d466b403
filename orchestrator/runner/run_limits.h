#pragma once
// What one run may record, as ingest caps it (parse/extract.h): the limits `sweep import` holds a bundle's
// runs to (store/bundle.h), so that a bundle brings in nothing a run of this sweep could not have stored.
#include "parse/extract.h"
#include "store/bundle.h"

namespace sweep::runner {

inline constexpr store::BundleLimits kRunRecordLimits{parse::kMaxMetricNames, parse::kMaxObservations,
                                                      parse::kMaxMetricNameBytes};

}  // namespace sweep::runner
