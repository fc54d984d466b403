#pragma once
// Files and directories that another user cannot make sweep follow, reuse or trust (docs/reliability.md,
// "Other users on a shared filesystem"): the model is git's safe.directory and OpenSSH's StrictModes.
//
// - What sweep creates is created new: make_new_directory() fails when the path exists (a planted
//   directory is never adopted), write_new_file() opens with O_CREAT|O_EXCL|O_NOFOLLOW (a planted
//   symlink or file is never followed or reused).
// - What sweep rewrites is its own: open_own_for_writing() truncates only after fstat shows the
//   user's own regular file.
// - What sweep trusts (the results directory, the database, the reports directory) is owned by the
//   user and writable by nobody else, unless the lab opted in to sharing by group (site file
//   `shared_group: true`, or --allow-shared): then another member's, group-writable path is trusted
//   too, a group-writable directory only with the sticky bit (members cannot rename or remove each
//   other's entries, so a path sweep made stays the one it made). Writable by everyone is never
//   trusted.
#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "util/error.h"

namespace sweep {

/// Whether the lab shares results by group (--allow-shared, the site's `shared_group: true`). The
/// cli installs a resolver once; it is asked only when a path is found that only sharing would make
/// trusted (so a site file is read only then). Without one, nothing is shared.
void set_group_sharing(std::function<bool()> resolver);
bool group_sharing_allowed();

/// Pure: why a path with status `st` is not trusted by user `me`, or "" when it is. Trusted: owned by
/// `me` or root, not writable by others, and not writable by group unless `group_shared` (which also
/// trusts another owner; a group-writable directory needs the sticky bit then). Symlinks are never
/// trusted.
std::string untrusted_reason(const struct stat& st, uid_t me, bool group_shared);

/// Refuses (Error(usage)) `path` when it exists and is not trusted (untrusted_reason with this
/// process's user and group_sharing_allowed()); the message names `what` and says how to opt in.
/// A missing path is accepted (the caller creates it). Follows symlinks (a results directory may be
/// one): what counts is the directory or file reached.
void require_trusted(const std::string& path, std::string_view what);
/// The same without following a symlink: a symlink at `path` is refused (for files that sweep's
/// libraries open by name beside one it checked, such as SQLite's -wal, -shm and -journal).
void require_trusted_entry(const std::string& path, std::string_view what);
/// The same for a file whose stat(2) the caller took, named `path`; the caller compares st_dev and
/// st_ino later to know the file it opened is the one checked. (A descriptor would not do for a
/// SQLite database: closing any descriptor of a file drops every POSIX lock the process holds on it,
/// SQLite's included, and a reader that lost its lock reads a checkpointed WAL as a malformed image.)
void require_trusted_stat(const struct stat& st, const std::string& path, std::string_view what);

/// mkdir(path, 0755 & ~umask & ~group/other write) that fails when `path` exists: Error(usage)
/// "... already exists ..." naming `what`; other failures Error(io). Never follows a symlink.
void make_new_directory(const std::string& path, std::string_view what);

/// make_new_directory's Error(usage) for a `what` at `path` that exists already.
Error directory_exists_error(const std::string& path, std::string_view what);

/// Creates each missing directory of `path`, parents first, as mkdir(0755 & ~umask): unlike
/// std::filesystem::create_directories, never writable by group or others whatever the umask (with a
/// user-private group's umask 002 a results directory made group-writable would then be refused as
/// untrusted). Directories that exist are left as they are. Error(io) when one cannot be made.
void make_directories(const std::string& path);

/// Creates `path` with `text` (O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW, `mode` & ~umask). Fails, Error(io),
/// when anything already is at `path`, a symlink included.
void write_new_file(const std::string& path, std::string_view text, mode_t mode = 0666);

/// Opens `path` for writing (close-on-exec), emptied: a new file, or the user's own regular file,
/// checked by fstat on the opened descriptor before it is truncated. Never follows a symlink (last
/// component). Error(io) otherwise. Returns the descriptor, owned by the caller.
int open_own_for_writing(const std::string& path, mode_t mode = 0666);

/// Replaces `path`'s content with `text` through open_own_for_writing().
void replace_own_file(const std::string& path, std::string_view text, mode_t mode = 0666);

/// The whole of the file at `path`, a file a workload or another user may have put there: opened without
/// following a symlink (nor blocking on a FIFO), and read only when it is a regular file that
/// untrusted_reason() accepts (with the lab's group sharing) and `size_problem(size)` returns "". Otherwise
/// Error(io) with the reason alone, the caller adding the path: "is a symlink: not followed", "missing",
/// "not a regular file", "not trusted: <why>", or size_problem's words. A file that shrinks while it is
/// read gives what is there.
std::string read_own_file(const std::string& path, const std::function<std::string(std::uintmax_t)>& size_problem);

/// read_own_file() refusing a file of more than `limit` bytes ("<size> bytes, over the limit of <limit>").
std::string read_own_file(const std::string& path, std::uintmax_t limit);

/// A file the user names (an experiment, a site file): read_own_file() that follows a symlink and
/// trusts any owner, but still reads only a regular file of at most `limit` bytes, and at most
/// that many: a FIFO, /dev/zero or a terminal is "not a regular file", never read until memory runs out.
std::string read_input_file(const std::string& path, std::uintmax_t limit);

}  // namespace sweep
