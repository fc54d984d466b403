#include "store/filesystem.h"

#include <sys/vfs.h>

#include <array>
#include <filesystem>
#include <utility>

namespace sweep::store {
namespace {

// statfs f_type magic numbers (linux/magic.h and the filesystems' own headers).
constexpr std::array<std::pair<unsigned long, std::string_view>, 9> kNetworkFilesystems{{
    {0x6969, "nfs"},
    {0x0BD00BD0, "lustre"},
    {0x47504653, "gpfs"},
    {0xFF534D42, "cifs"},
    {0xFE534D42, "smb2"},
    {0x00C36400, "ceph"},
    {0x19830326, "beegfs"},
    {0x01021997, "9p"},
    {0x65735546, "fuse"},
}};

}  // namespace

std::optional<std::string_view> network_filesystem_name(unsigned long f_type) {
  for (const auto& [magic, name] : kNetworkFilesystems)
    if (magic == f_type) return name;
  return std::nullopt;
}

std::optional<std::string_view> network_filesystem_of(const std::string& path) {
  std::filesystem::path p = path.empty() ? "." : path;
  std::error_code ec;
  if (!std::filesystem::exists(p, ec)) p = p.has_parent_path() ? p.parent_path() : ".";
  struct statfs fs {};
  if (::statfs(p.c_str(), &fs) != 0) return std::nullopt;
  return network_filesystem_name(static_cast<unsigned long>(fs.f_type));
}

}  // namespace sweep::store
