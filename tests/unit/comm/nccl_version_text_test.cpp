#include <catch2/catch.hpp>

#include "comm/nccl_version.h"

using sweep::comm::nccl_version_text;

TEST_CASE("NCCL version codes read in both of NCCL's schemes") {
  CHECK(nccl_version_text(22809) == "2.28.9");   // major·10000 + minor·100 + patch, since 2.9
  CHECK(nccl_version_text(21803) == "2.18.3");
  CHECK(nccl_version_text(20900) == "2.9.0");    // the first code of the new scheme
  CHECK(nccl_version_text(2708) == "2.7.8");     // major·1000 + minor·100 + patch, before 2.9
  CHECK(nccl_version_text(2406) == "2.4.6");
}
