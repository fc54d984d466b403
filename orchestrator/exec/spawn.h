#pragma once
// Starting one job process (vfork and execve). Internal to exec/.
#include <sys/types.h>

#include "exec/executor.h"

namespace sweep::exec {

/// Starts `job.script` as the leader of a new process group, as local_executor.h describes: cwd =
/// work_dir; stdout/stderr to work_dir/stdout and work_dir/stderr (created or truncated, mode 0644
/// before umask); stdin from /dev/null; environment = ours plus job.env; signal mask empty and
/// SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD at their defaults; PR_SET_PDEATHSIG = SIGKILL.
///
/// Returns the pid, which is also the process-group id; the process has exec'd the script by then
/// and the caller owns reaping it. Throws sweep::Error(io) "cannot start job <id>: <reason>" when
/// it cannot be started; then no process is left (a half-started child has been reaped).
///
/// PR_SET_PDEATHSIG fires when the *thread* that forked dies, not the process: call this from a
/// thread that lives as long as the jobs (the runner uses its main thread).
pid_t spawn_job(const Job& job);

}  // namespace sweep::exec
