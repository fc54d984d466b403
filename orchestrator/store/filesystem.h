#pragma once
// Which filesystem holds the results database. SQLite's WAL mode needs shared memory between the
// processes that open the database, which network filesystems (NFS, Lustre, GPFS, CIFS, ...) do not
// give; there the store uses a rollback journal instead (docs/database.md).
#include <optional>
#include <string>
#include <string_view>

namespace sweep::store {

/// The name of a network (or possibly networked) filesystem with this statfs f_type: "nfs", "lustre",
/// "gpfs", "cifs", "smb2", "ceph", "beegfs", "9p", "fuse" (sshfs, s3fs, ...). nullopt for local ones.
std::optional<std::string_view> network_filesystem_name(unsigned long f_type);

/// network_filesystem_name of the filesystem that holds `path` (the file, or its directory when the
/// file does not exist yet). nullopt when local or when statfs fails.
std::optional<std::string_view> network_filesystem_of(const std::string& path);

}  // namespace sweep::store
