#include "comm/nccl_version.h"

namespace sweep::comm {

std::string nccl_version_text(int code) {
  const bool old = code < 20900;
  const int major = old ? code / 1000 : code / 10000;
  const int minor = old ? (code % 1000) / 100 : (code % 10000) / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

}  // namespace sweep::comm
