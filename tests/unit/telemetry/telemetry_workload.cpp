// telemetry_workload: the workloads of known behaviour that the sampler's tests measure (a test
// program, never installed).
//   telemetry_workload busy SECONDS        one core busy until this process has used SECONDS of CPU
//   telemetry_workload hold MIB SECONDS    allocates MIB MiB, touches every page, holds it SECONDS
//   telemetry_workload tree MIB SECONDS    a parent that starts `hold MIB SECONDS` as its child, waits for it
//   telemetry_workload spike MIB SECONDS EVENTS
//                                          waits for SIGUSR1, holds MIB MiB for SECONDS (every page
//                                          touched, then unmapped), appends "released" to the file EVENTS
//                                          and waits to be killed: a peak between two samples, at a
//                                          moment the test chooses and learns the end of
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

double cpu_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int busy(double seconds) {
  volatile unsigned long sink = 0;
  while (cpu_s() < seconds) {
    for (int i = 0; i < 10000; ++i) sink = sink + static_cast<unsigned long>(i);
  }
  return 0;
}

int hold(std::size_t mib, double seconds) {
  std::vector<char> memory(mib << 20);
  for (std::size_t i = 0; i < memory.size(); i += 4096) memory[i] = 1;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return memory[4096] == 1 ? 0 : 1;
}

int spike(std::size_t mib, double seconds, const char* events) {
  sigset_t go;
  sigemptyset(&go);
  sigaddset(&go, SIGUSR1);
  ::sigprocmask(SIG_BLOCK, &go, nullptr);  // blocked before the test can send it: never lost
  int signal = 0;
  if (::sigwait(&go, &signal) != 0) return 1;
  const std::size_t bytes = mib << 20;
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return 1;
  for (std::size_t i = 0; i < bytes; i += 4096) static_cast<volatile char*>(memory)[i] = 1;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  ::munmap(memory, bytes);  // back to the system: VmRSS falls, VmHWM stays
  std::FILE* out = std::fopen(events, "a");
  if (out == nullptr) return 1;
  std::fputs("released\n", out);
  std::fclose(out);
  for (;;) ::pause();  // until the test kills it
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "busy" && argc == 3) return busy(std::atof(argv[2]));
  if (mode == "hold" && argc == 4) return hold(std::strtoul(argv[2], nullptr, 10), std::atof(argv[3]));
  if (mode == "spike" && argc == 5) return spike(std::strtoul(argv[2], nullptr, 10), std::atof(argv[3]), argv[4]);
  if (mode == "tree" && argc == 4) {
    const pid_t child = ::fork();
    if (child == 0) {
      ::execl("/proc/self/exe", argv[0], "hold", argv[2], argv[3], static_cast<char*>(nullptr));
      ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  std::fprintf(stderr, "usage: telemetry_workload busy SECONDS | hold MIB SECONDS | tree MIB SECONDS | spike MIB SECONDS EVENTS\n");
  return 2;
}
