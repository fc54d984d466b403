#include "sampler_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace sweep::telemetry::testing {

pid_t spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, uid_t run_as,
            const std::string& stdout_file) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  for (const auto& [name, value] : env) ::setenv(name.c_str(), value.c_str(), 1);
  if (!stdout_file.empty()) {
    const int fd = ::open(stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
  }
  if (run_as != 0 && (::setgid(run_as) != 0 || ::setuid(run_as) != 0)) ::_exit(126);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

Ended wait_for(pid_t pid) {
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  Ended e;
  e.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  e.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
            static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  return e;
}

std::pair<int, std::string> run_capture(const std::vector<std::string>& argv,
                                        const std::map<std::string, std::string>& env) {
  char name[] = "/tmp/sweep-telemetry-out-XXXXXX";
  const int fd = ::mkstemp(name);
  ::close(fd);
  const Ended e = wait_for(spawn(argv, env, 0, name));
  std::string out = read_text(name);
  ::unlink(name);
  return {e.exit_code, out};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool running(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

bool wait_for_line(const std::string& path, const std::string& prefix, int count) {
  for (int i = 0; i < 12000; ++i) {
    std::istringstream lines(read_text(path));
    std::string line;
    int found = 0;
    while (std::getline(lines, line)) {
      if (line.rfind(prefix, 0) == 0 && ++found == count) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

Log read_log(const std::string& path) { return parse_telemetry(read_text(path), path); }

}  // namespace sweep::telemetry::testing
