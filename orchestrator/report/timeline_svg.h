#pragma once
// A timeline (report/timeline.h) drawn as an SVG document: one panel per kind of series that has any
// (power, GPU utilisation, CPU cores, GPU memory, the workload's RSS) against the same time axis, the workload's start (t = 0)
// and each node's end (`end`, or "cut short" at its last sample) marked on every panel, a key under each.
// Every text that came from a file (node, zone names) is escaped for XML; the document has no script,
// no link and no external reference. Its size is bounded by Timeline's bounds. Pure.
#include <string>

#include "report/timeline.h"

namespace sweep::report {

std::string timeline_svg(const Timeline& timeline, const std::string& title);

}  // namespace sweep::report
