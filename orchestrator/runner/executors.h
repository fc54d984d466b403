#pragma once
// The scheduler behind each batch executor of sched/executors.h: one row per scheduler module.
#include <memory>
#include <string_view>

#include "sched/scheduler.h"

namespace sweep::runner {

/// A new Scheduler for batch executor `executor`; Error(internal) for one without a row here
/// (the unit test checks that every batch executor has one).
std::unique_ptr<sched::Scheduler> make_scheduler(std::string_view executor);

}  // namespace sweep::runner
