// GPU facts from real nvidia-smi output. The samples are what nvidia-smi printed on users' machines, as
// posted in public issues (named at each); UUIDs and banners are as posted, table rows cut short.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "runner/gpu_facts.h"

using sweep::runner::gpu_facts;

namespace {

std::map<std::string, std::string> facts(const std::string& list, const std::string& banner) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : gpu_facts(list, banner)) out[k] = v;
  return out;
}

// github.com/influxdata/telegraf/issues/5812: an A100 split into MIG devices, and three whole ones.
const std::string kMigList = R"(GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-513536b6-7d19-9063-b049-1e69664bb298)
  MIG 1g.20gb     Device  0: (UUID: MIG-ce861fb0-a248-58ce-a9a8-f9adbc22a66a)
  MIG 1g.20gb     Device  1: (UUID: MIG-a45882f0-9215-5733-a0c1-49286ab31cb5)
  MIG 1g.20gb     Device  2: (UUID: MIG-f00d722c-f4e1-52c9-aa31-750441ae1bfe)
  MIG 1g.20gb     Device  3: (UUID: MIG-930574a9-d43a-5d2b-95da-3e68384c8d6b)
GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-d8594bd4-0fc3-8595-e355-7c98138f3b95)
GPU 2: NVIDIA A100-SXM4-80GB (UUID: GPU-5e375e7e-b41f-155b-dcdc-534524c356fc)
GPU 3: NVIDIA A100-SXM4-80GB (UUID: GPU-69ec2344-ebac-b028-f88f-452abb3d7f11)
)";

// github.com/akash-network/provider-configs/pull/12: `nvidia-smi -L`, then the banner of `nvidia-smi`.
const std::string kQuadroList = R"(GPU 0: Quadro RTX 4000 (UUID: GPU-c7b57be0-94ff-d352-a59b-d0ee00aeed43)
GPU 1: Quadro RTX 4000 (UUID: GPU-d6de6afc-bdfe-75c4-5273-0544439153fc)
)";
const std::string kQuadroBanner = R"(Thu Feb 29 14:58:21 2024
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
)";

// github.com/wilicc/gpu-burn/issues/114: the banner of an H100 node.
const std::string kH100Banner = R"(Fri Oct 25 11:21:22 2024
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
|   0  NVIDIA H100 80GB HBM3          On  |   00000000:19:00.0 Off |                    0 |
)";

}  // namespace

TEST_CASE("GPU facts: count and model from nvidia-smi -L, driver and CUDA from the banner") {
  const auto quadro = facts(kQuadroList, kQuadroBanner);
  CHECK(quadro == std::map<std::string, std::string>{{"gpu.count", "2"}, {"gpu.model", "Quadro RTX 4000"},
                                                     {"gpu.driver", "535.129.03"}, {"gpu.cuda", "12.2"}});
  // MIG devices are parts of GPU 0, not GPUs of their own.
  const auto mig = facts(kMigList, kH100Banner);
  CHECK(mig.at("gpu.count") == "4");
  CHECK(mig.at("gpu.model") == "NVIDIA A100-SXM4-80GB");
  CHECK(mig.at("gpu.driver") == "550.90.07");
  CHECK(mig.at("gpu.cuda") == "12.4");
}

TEST_CASE("GPU facts: mixed models are tallied, missing or foreign text gives no keys") {
  const std::string mixed = kQuadroList + "GPU 2: NVIDIA H100 80GB HBM3 (UUID: GPU-0000)\n";
  const auto f = facts(mixed, "");
  CHECK(f.at("gpu.count") == "3");
  CHECK(f.at("gpu.model") == "2 x Quadro RTX 4000, 1 x NVIDIA H100 80GB HBM3");
  CHECK(f.count("gpu.driver") == 0);
  CHECK(gpu_facts("", "").empty());
  // What a node without a driver prints instead of a device list.
  CHECK(gpu_facts("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n", "").empty());
  CHECK(facts("", "| NVIDIA-SMI 580.126.09   Driver Version: 580.126.09   CUDA Version: 13.0 |").size() == 2);
}
