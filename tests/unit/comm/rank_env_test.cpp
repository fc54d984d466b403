#include <catch2/catch.hpp>

#include <map>
#include <stdexcept>
#include <string>

#include "comm/rank_env.h"

using namespace sweep::comm;

namespace {

RankInfo from(const std::map<std::string, std::string>& vars) {
  return discover_rank([&](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
}

}  // namespace

TEST_CASE("no launcher variables mean a single process") {
  const auto r = from({});
  CHECK(r.rank == 0);
  CHECK(r.world_size == 1);
  CHECK(r.source == "none");
}

TEST_CASE("Slurm variables give rank, size, local rank and the first host as master") {
  const auto r = from({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_STEP_NUM_TASKS", "4"},
                       {"SLURM_LOCALID", "1"}, {"SLURM_STEP_NODELIST", "gpu[07-08]"}, {"SLURM_JOB_NODELIST", "x1"}});
  CHECK(r.source == "slurm");
  CHECK(r.rank == 3);
  CHECK(r.world_size == 4);  // the step's task count, not the job's
  CHECK(r.local_rank == 1);
  CHECK(r.master_addr == "gpu07");
}

TEST_CASE("OpenMPI wins over the Slurm batch step, and torchrun variables win over both") {
  const std::map<std::string, std::string> slurm_batch{{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}};
  auto mpi = slurm_batch;
  mpi.insert({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}});
  CHECK(from(mpi).source == "openmpi");
  CHECK(from(mpi).rank == 2);
  auto torch = mpi;
  torch.insert({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29500"}});
  const auto r = from(torch);
  CHECK(r.source == "torchrun");
  CHECK(r.rank == 1);
  CHECK(r.world_size == 2);
  CHECK(r.master_addr == "10.0.0.1");
  CHECK(r.master_port == 29500);
}

TEST_CASE("bad rank variables are errors that name the variable") {
  CHECK_THROWS_WITH(from({{"RANK", "one"}, {"WORLD_SIZE", "2"}}), "RANK=\"one\" is not an integer");
  CHECK_THROWS_WITH(from({{"RANK", "2"}, {"WORLD_SIZE", "2"}}), "rank 2 (from torchrun variables) is outside [0, 2)");
  CHECK_THROWS_WITH(from({{"RANK", "0"}, {"WORLD_SIZE", "0"}}),
                    "world size 0 (from torchrun variables) must be at least 1");
}

TEST_CASE("first host of Slurm node lists") {
  CHECK(first_host("n1") == "n1");
  CHECK(first_host("n[1-2]") == "n1");
  CHECK(first_host("gpu-a[03,07],cpu1") == "gpu-a03");
  CHECK(first_host("a1,b[2-3]") == "a1");
}
