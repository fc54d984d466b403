// What NCCL_DEBUG=INFO says NCCL chose, read into nccl.net and nccl.transports. The sample lines are
// real NCCL output, copied from public GitHub threads (each named at its use; host names as posted).
#include <catch2/catch.hpp>

#include "parse/nccl_transports.h"

using namespace sweep::parse;
using Keys = std::vector<std::pair<std::string, std::string>>;

namespace {

Keys keys_of(std::string_view text) { return nccl_transport_keys(scan_nccl_transports({text})); }

}  // namespace

TEST_CASE("nccl transports: one node over P2P/IPC, NCCL 2.18 (NVIDIA/nccl#952)") {
  // NVIDIA/nccl issue 952, "NCCL INFO NET/IB : No device found": 8 GPUs, the IB plugin found nothing.
  const std::string text =
      "<cluster_name>:919:1150 [0] NCCL INFO Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read\n"
      "<cluster_name>:926:1151 [7] NCCL INFO Channel 03/0 : 15[7] -> 6[6] [send] via NET/Socket/3\n"
      "<cluster_name>:921:1146 [2] NCCL INFO Channel 00/0 : 10[2] -> 9[1] via P2P/IPC/read\n";
  CHECK(keys_of(text) == Keys{{"nccl.transports", "NET/Socket,P2P/IPC"}});
}

TEST_CASE("nccl transports: RoCE with two HCAs, the network line, NCCL 2.19 (NVIDIA/nccl-tests#185)") {
  // NVIDIA/nccl-tests issue 185, "misc/ibvwrap.cc:187 NCCL WARN Call to ibv_modify_qp failed".
  const std::string text =
      "dgxh100-4:460770:460770 [0] NCCL INFO Bootstrap : Using enp220s0np0:11.1.128.136<0>\n"
      "NCCL version 2.19.3+cuda12.3\n"
      "dgxh100-4:460770:460842 [0] NCCL INFO NET/IB : Using [0]mlx5_10:1/RoCE [1]mlx5_11:1/RoCE [RO]; OOB enp220s0np0:11.1.128.136<0>\n"
      "dgxh100-4:460770:460842 [0] NCCL INFO Using non-device net plugin version 0\n"
      "dgxh100-4:460770:460842 [0] NCCL INFO Using network IB\n"
      "dgxh100-3:2152176:2152299 [0] NCCL INFO Using network IB\n";
  CHECK(keys_of(text) == Keys{{"nccl.net", "IB"}});
}

TEST_CASE("nccl transports: Socket and IB both initialised, IB chosen, NCCL 2.4 (Mellanox/nv_peer_memory#56)") {
  // Mellanox/nv_peer_memory issue 56, "Why it doesn't show connection via NET/IB/0/GDRDMA": NCCL 2.4
  // prints no "Using network" line.
  const std::string text =
      "master_node:20:289 [0] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.1<0>\n"
      "master_node:20:289 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
      "master_node:20:289 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:192.168.11.1<0>\n"
      "NCCL version 2.4.7+cuda10.0\n";
  CHECK(keys_of(text) == Keys{{"nccl.net", "IB"}});
  // Socket alone is the network when it is all there is.
  CHECK(keys_of("secondary_node:44:311 [3] NCCL INFO NET/Socket : Using [0]ib0:192.168.11.2<0>\n") ==
        Keys{{"nccl.net", "Socket"}});
}

TEST_CASE("nccl transports: GPUDirect RDMA over IB and P2P/direct pointer, old channel syntax (NVIDIA/nccl#429)") {
  // NVIDIA/nccl issue 429, "[Hang] Mpi + Nccl hang in MPI_Bcast": "Channel 00 :" without "/0".
  const std::string text =
      "machine-1:16194:18583 [3] NCCL INFO Channel 00 : 11[3e000] -> 9[1b000] via P2P/direct pointer\n"
      "machine-1:16194:18586 [6] NCCL INFO Channel 03 : 7[b2000] -> 14[b1000] [receive] via NET/IB/0/GDRDMA\n"
      "machine-2:41626:45225 [7] NCCL INFO Channel 03 : 7[b2000] -> 14[b1000] [send] via NET/IB/0/GDRDMA\n";
  CHECK(keys_of(text) == Keys{{"nccl.transports", "NET/IB/GDRDMA,P2P/direct"}});
}

TEST_CASE("nccl transports: Socket between nodes and SHM within (NVIDIA/nccl-tests#166)") {
  // NVIDIA/nccl-tests issue 166, "Test NCCL failure common.cu:958 'internal error ...'".
  const std::string text =
      "ubuntu:9621:9692 [7] NCCL INFO Channel 14/0 : 15[7] -> 0[0] [send] via NET/Socket/0\n"
      "ubuntu:39964:40050 [6] NCCL INFO Channel 09 : 6[6] -> 7[7] via SHM/direct/direct\n"
      "ubuntu:9621:9688 [3] NCCL INFO Channel 05 : 11[3] -> 12[4] via SHM/direct/direct\n";
  CHECK(keys_of(text) == Keys{{"nccl.transports", "NET/Socket,SHM"}});
}

TEST_CASE("nccl transports: P2P/CUMEM behind a logger's timestamp (aws/aws-ofi-nccl#715, NVIDIA/nccl#1538)") {
  // aws/aws-ofi-nccl issue 715 (lines as its log showed them, each after a timestamp line) and
  // NVIDIA/nccl issue 1538 ("NCCL 2.22.3 core dump when specify NCCL_IB_ROCE_VERSION_NUM").
  const std::string text =
      "2024-12-04T05:27:45.082Z\n"
      "algo-1:18063:18133 [6] NCCL INFO Channel 01/0 : 6[6] -> 7[7] via P2P/CUMEM/read\n"
      "job-3bb823c0-6d27-4312-8094-1c5910bf9b51-worker-0:5666:5808 [3] NCCL INFO Channel 07/0 : 3[3] -> 4[4] via P2P/CUMEM\n"
      "2025-11-12 20:42:20,261 - INFO - g340-cd51-4900-b72a-d104-a9bf-df48:4450:4887 [5] NCCL INFO Channel 31/1 : 5[5] -> 0[0] via P2P/IPC\n";
  CHECK(keys_of(text) == Keys{{"nccl.transports", "P2P/CUMEM,P2P/IPC"}});
}

TEST_CASE("nccl transports: IB with GDRDMA and CUMEM on H20s, NCCL's two sides in one run (NVIDIA/nccl#1189)") {
  // NVIDIA/nccl issue 1189, "Please help for clarification of P2P described in NCCL?": one rank's lines
  // on stdout, the other's on stderr.
  const std::string out = "H20-GPU-06:4015539:4015652 [0] NCCL INFO Channel 07/0 : 0[0] -> 2[0] [receive] via NET/IB/3/GDRDMA\n";
  const std::string err = "H20-GPU-05:1789225:1789736 [1] NCCL INFO Channel 01/0 : 1[1] -> 0[0] via P2P/CUMEM\n"
                          "H20-GPU-05:1789225:1789736 [1] NCCL INFO Using network IB\r\n";
  CHECK(nccl_transport_keys(scan_nccl_transports({out, err})) ==
        Keys{{"nccl.net", "IB"}, {"nccl.transports", "NET/IB/GDRDMA,P2P/CUMEM"}});
}

TEST_CASE("nccl transports: output without NCCL's lines gives no keys") {
  CHECK(keys_of("").empty());
  CHECK(keys_of("# nccl-tests out-of-place 1024 256 float sum -1 12.3\nUsing network IB\nChannel 00 via P2P/IPC\n").empty());
  CHECK(keys_of("host:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via \n").empty());
  CHECK(keys_of("host:1:2 [0] NCCL INFO Using network \n").empty());
}

TEST_CASE("nccl transports: a channel's transport named without index and mode") {
  CHECK(channel_transport("P2P/IPC/read") == "P2P/IPC");
  CHECK(channel_transport("P2P/direct pointer") == "P2P/direct");
  CHECK(channel_transport("SHM/direct/direct") == "SHM");
  CHECK(channel_transport("NET/IB/0") == "NET/IB");
  CHECK(channel_transport("NET/AWS Libfabric/0/GDRDMA") == "NET/AWS Libfabric/GDRDMA");
  CHECK(channel_transport("CollNet/0") == "CollNet");
  CHECK(channel_transport("") == "");
}
