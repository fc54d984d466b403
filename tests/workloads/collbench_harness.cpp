#include "workloads/collbench_harness.h"

#include <sstream>

namespace workloads {

// Each mpirun has its own session directory base (the sandbox): tests run side by side, and Open MPI 4's
// shared /tmp/ompi.<host>.<uid> is removed by one mpirun's cleanup while another creates its own in it
// (open-mpi/ompi#8510; seen in CI as "A call to mkdir was unable to create the desired directory").
e2e::Result mpirun(const std::string& program, int ranks, const std::string& args) {
  e2e::Sandbox box;
  return e2e::shell("cd " + box.dir().string() + " && OMPI_MCA_orte_tmpdir_base=" + box.dir().string() +
                    " OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np " +
                    std::to_string(ranks) + " " + program + " " + args);
}

e2e::Result mpirun_collbench(int ranks, const std::string& args) { return mpirun(COLLBENCH_BIN, ranks, args); }

std::map<std::string, std::map<int, nlohmann::json>> metric_lines(const std::string& out) {
  std::map<std::string, std::map<int, nlohmann::json>> metrics;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    const auto j = nlohmann::json::parse(line);
    metrics[j.at("metric").get<std::string>()][j.at("index").get<int>()] = j;
  }
  return metrics;
}

}  // namespace workloads
