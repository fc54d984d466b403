#pragma once
// NCCL's version code as text, for the nccl backend's library_version() and the nccl-version program.
// Pure.
#include <string>

namespace sweep::comm {

/// ncclGetVersion's code as "major.minor.patch": the code is major·10000 + minor·100 + patch since
/// NCCL 2.9 (21903 is "2.19.3"), major·1000 + minor·100 + patch before (2708 is "2.7.8").
std::string nccl_version_text(int code);

}  // namespace sweep::comm
