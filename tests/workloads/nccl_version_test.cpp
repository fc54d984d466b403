// nccl-version reports the NCCL that the dynamic loader finds, as ncclGetVersion gives it. The build
// machines have NCCL under /usr/local/cuda (in ldconfig's cache, no GPU needed to ask its version): the
// version printed must be the one that library's nccl.h declares.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "e2e/harness.h"

namespace {

// "MAJOR.MINOR.PATCH" from the #defines of an nccl.h.
std::string declared_version(const std::string& header) {
  std::ifstream in(header);
  std::stringstream text;
  text << in.rdbuf();
  const std::string h = text.str();
  std::string version;
  for (const char* part : {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"}) {
    std::smatch m;
    REQUIRE(std::regex_search(h, m, std::regex(std::string("#define ") + part + R"(\s+(\d+))")));
    version += (version.empty() ? "" : ".") + m[1].str();
  }
  return version;
}

}  // namespace

TEST_CASE("nccl-version prints the version of the NCCL library the loader finds") {
  const e2e::Result r = e2e::shell(NCCL_VERSION_BIN);
#ifdef NCCL_HEADER
  CHECK(r.exit_code == 0);
  CHECK(r.out == declared_version(NCCL_HEADER) + "\n");
#else
  // A machine without NCCL's header may still have the library; without either, the reason is named.
  if (r.exit_code == 0) CHECK(std::regex_match(r.out, std::regex(R"(\d+\.\d+\.\d+\n)")));
  else CHECK(r.err.find("nccl-version: no NCCL here: ") == 0);
#endif
}
