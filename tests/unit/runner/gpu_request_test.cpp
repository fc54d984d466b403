// What asked for GPUs at a point: a GPU resource, else a bundled program's option that puts it on a GPU
// or on NCCL, else "none" (the reports then show no GPU or NCCL line for the run).
#include <catch2/catch.hpp>

#include "runner/gpu_request.h"

using namespace sweep;
using runner::gpu_request;

TEST_CASE("a run asks for GPUs through a GPU resource, or a gres that names one") {
  const std::vector<sched::Resource> gpus{{"nodes", "2", {}}, {"gpus", "2", {}}};
  CHECK(gpu_request(gpus, "", {}) == "resources.gpus=2");
  CHECK(gpu_request(std::vector<sched::Resource>{{"gpus-per-node", "4", {}}}, "", {}) == "resources.gpus-per-node=4");
  CHECK(gpu_request(std::vector<sched::Resource>{{"gres", "gpu:a100:4", {}}}, "", {}) == "resources.gres=gpu:a100:4");
  CHECK(gpu_request(std::vector<sched::Resource>{{"gres", "nvme:1", {}}, {"ntasks", "4", {}}}, "", {}) == "none");
  CHECK(gpu_request({}, "", {}) == "none");
}

TEST_CASE("a bundled program asks for GPUs through its backend or device, trainbench by default") {
  CHECK(gpu_request({}, "collbench", {{"backend", "nccl"}}) == "collbench --backend nccl");
  CHECK(gpu_request({}, "collbench", {{"backend", "gloo"}, {"device", "cuda"}}) == "collbench --device cuda");
  CHECK(gpu_request({}, "collbench", {{"backend", "mpi"}}) == "none");
  CHECK(gpu_request({}, "collbench", {}) == "none");
  // trainbench's --device auto (its default) trains on a GPU where there is one.
  CHECK(gpu_request({}, "trainbench", {}) == "trainbench --device auto");
  CHECK(gpu_request({}, "trainbench", {{"device", "cpu"}}) == "none");
  CHECK(gpu_request({}, "trainbench", {{"device", "cpu"}, {"backend", "auto"}}) == "trainbench --backend auto");
  // A value known only at run time is not a request sweep can see.
  CHECK(gpu_request({}, "collbench", {{"backend", std::nullopt}}) == "none");
}
