// nccl-version: prints the version of the NCCL library this node's dynamic loader finds (libnccl.so.2,
// through LD_LIBRARY_PATH, the loaded modules and ldconfig), as ncclGetVersion reports it: "2.28.9".
// sweep records it in every run's provenance (nccl.version). It loads the library with dlopen, so it
// needs no NCCL to build and runs on any node. Exit codes: 0 printed, 1 no NCCL (the reason on stderr).
#include <dlfcn.h>

#include <cstdio>

#include "comm/nccl_version.h"

int main() {
  void* nccl = ::dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!nccl) {
    std::fprintf(stderr, "nccl-version: no NCCL here: %s\n", ::dlerror());
    return 1;
  }
  using GetVersion = int (*)(int*);
  const auto get_version = reinterpret_cast<GetVersion>(::dlsym(nccl, "ncclGetVersion"));
  int code = 0;
  if (!get_version || get_version(&code) != 0 || code <= 0) {
    std::fprintf(stderr, "nccl-version: libnccl.so.2 has no working ncclGetVersion\n");
    return 1;
  }
  std::printf("%s\n", sweep::comm::nccl_version_text(code).c_str());
  return 0;
}
