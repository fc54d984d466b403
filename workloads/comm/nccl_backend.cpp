// The nccl backend: NCCL on one GPU per rank (the only user of NCCL and the CUDA runtime). Compiled
// only when CUDA and NCCL are found. Ranks meet through files in a shared directory, where rank 0
// publishes the NCCL unique id. Buffers live in device memory; collectives are enqueued on one stream
// and synchronize() waits for them.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <stdexcept>

#include "comm/backends.h"
#include "comm/device.h"
#include "comm/nccl_version.h"
#include "comm/rendezvous.h"

namespace sweep::comm::detail {
namespace {

void cuda_check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(code));
}

void nccl_check(ncclResult_t code, const char* what) {
  if (code != ncclSuccess) throw std::runtime_error(std::string(what) + " failed: " + ncclGetErrorString(code));
}

constexpr std::array<std::pair<DType, ncclDataType_t>, 5> kTypes{{
    {DType::fp32, ncclFloat32}, {DType::fp16, ncclFloat16}, {DType::bf16, ncclBfloat16},
    {DType::fp64, ncclFloat64}, {DType::int32, ncclInt32}}};

constexpr std::array<std::pair<ReduceOp, ncclRedOp_t>, 3> kOps{{
    {ReduceOp::sum, ncclSum}, {ReduceOp::avg, ncclAvg}, {ReduceOp::max, ncclMax}}};

ncclDataType_t nccl_type(DType type) {
  for (const auto& [t, n] : kTypes)
    if (t == type) return n;
  return ncclFloat32;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  for (const auto& [o, n] : kOps)
    if (o == op) return n;
  return ncclSum;
}

// Zero-filled at construction and uploaded by upload() before either returns: the collectives run on a
// non-blocking stream, which does not wait for the default stream that cudaMemset and cudaMemcpy use.
class DeviceBuffer final : public Buffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    bytes_ = bytes;
    cuda_check(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc");
    cuda_check(cudaMemset(data_, 0, bytes == 0 ? 1 : bytes), "cudaMemset");
    cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize after cudaMemset");
  }
  ~DeviceBuffer() override { cudaFree(data_); }
  void upload(const void* host, std::size_t bytes) override {
    cuda_check(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
    cuda_check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize after cudaMemcpy");
  }
  void download(void* host, std::size_t bytes) const override {
    cuda_check(cudaMemcpy(host, data_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
  }
};

char* at(void* p, std::size_t elements, DType type) { return static_cast<char*>(p) + elements * size_of(type); }

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(int rank, int size, ncclComm_t comm, int device, std::vector<std::string> hosts)
      : Communicator(rank, size), comm_(comm), device_(device) {
    set_hosts(std::move(hosts));
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreateWithFlags(&compute_, cudaEventDisableTiming), "cudaEventCreate");
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~NcclCommunicator() override {
    ncclCommDestroy(comm_);
    for (cudaEvent_t e : {compute_, start_, stop_}) cudaEventDestroy(e);
    cudaStreamDestroy(stream_);
  }

  std::string_view backend() const override { return "nccl"; }
  std::string library_version() const override {
    int code = 0;
    ncclGetVersion(&code);
    return "NCCL " + nccl_version_text(code);
  }
  std::unique_ptr<Buffer> allocate(std::size_t bytes) override { return std::make_unique<DeviceBuffer>(bytes); }
  void synchronize() override { cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }
  bool device_memory() const override { return true; }
  // NCCL allows calls on different communicators from different threads; trainbench overlaps only where
  // a rank uses one communicator during backward (docs/trainbench.md).
  bool concurrent() const override { return true; }
  std::string clock() const override { return "CUDA events on nccl's stream"; }
  // The calling thread may be one that never chose a device (trainbench's all-reduce thread): the null
  // stream and the events belong to the current device, so it is made current first.
  double timed(const std::function<void()>& calls) override {
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    cuda_check(cudaEventRecord(compute_, nullptr), "cudaEventRecord on the default stream");
    cuda_check(cudaStreamWaitEvent(stream_, compute_, 0), "cudaStreamWaitEvent");
    cuda_check(cudaEventRecord(start_, stream_), "cudaEventRecord");
    calls();
    cuda_check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return static_cast<double>(ms) / 1000.0;
  }

 protected:
  void do_all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    nccl_check(ncclAllReduce(in, out, count, nccl_type(type), nccl_op(op), comm_, stream_), "ncclAllReduce");
  }
  void do_all_gather(const void* in, void* out, std::size_t count, DType type) override {
    nccl_check(ncclAllGather(in, out, count, nccl_type(type), comm_, stream_), "ncclAllGather");
  }
  void do_reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    nccl_check(ncclReduceScatter(in, out, count, nccl_type(type), nccl_op(op), comm_, stream_), "ncclReduceScatter");
  }
  void do_broadcast(const void* in, void* out, std::size_t count, DType type, int root) override {
    nccl_check(ncclBroadcast(in, out, count, nccl_type(type), root, comm_, stream_), "ncclBroadcast");
  }
  void do_all_to_all(const void* in, void* out, std::size_t count, DType type) override {
    // NCCL has no all-to-all call: one grouped send and receive per peer, as nccl-tests does.
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (int peer = 0; peer < size(); ++peer) {
      const auto offset = count * static_cast<std::size_t>(peer);
      nccl_check(ncclSend(at(const_cast<void*>(in), offset, type), count, nccl_type(type), peer, comm_, stream_), "ncclSend");
      nccl_check(ncclRecv(at(out, offset, type), count, nccl_type(type), peer, comm_, stream_), "ncclRecv");
    }
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }
  void do_send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) override {
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    nccl_check(ncclSend(in, count, nccl_type(type), to, comm_, stream_), "ncclSend");
    nccl_check(ncclRecv(out, count, nccl_type(type), from, comm_, stream_), "ncclRecv");
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }
  void do_send(const void* in, std::size_t count, DType type, int to) override {
    nccl_check(ncclSend(in, count, nccl_type(type), to, comm_, stream_), "ncclSend");
  }
  void do_recv(void* out, std::size_t count, DType type, int from) override {
    nccl_check(ncclRecv(out, count, nccl_type(type), from, comm_, stream_), "ncclRecv");
  }
  void do_barrier() override {
    // An all-reduce of one element, waited for: NCCL has no barrier.
    if (!barrier_) barrier_ = std::make_unique<DeviceBuffer>(sizeof(float));
    nccl_check(ncclAllReduce(barrier_->data(), barrier_->data(), 1, ncclFloat32, ncclSum, comm_, stream_), "ncclAllReduce");
    synchronize();
  }
  // Host data travels through a device buffer (NCCL reads and writes device memory only), every step
  // on this communicator's stream, so each waits for the one before.
  void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) override {
    const std::size_t block = count * sizeof(std::int32_t);
    DeviceBuffer staging(block * static_cast<std::size_t>(size()));
    void* own = static_cast<char*>(staging.data()) + block * static_cast<std::size_t>(rank());
    cuda_check(cudaMemcpyAsync(own, in, block, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync to the device");
    nccl_check(ncclAllGather(own, staging.data(), count, ncclInt32, comm_, stream_), "ncclAllGather");
    cuda_check(cudaMemcpyAsync(out, staging.data(), staging.bytes(), cudaMemcpyDeviceToHost, stream_),
               "cudaMemcpyAsync from the device");
    synchronize();
  }
  std::unique_ptr<Communicator> do_split(int color, const std::vector<int>& members) override {
    const int key = static_cast<int>(std::find(members.begin(), members.end(), rank()) - members.begin());
    ncclComm_t group;
    nccl_check(ncclCommSplit(comm_, color, key, &group, nullptr), "ncclCommSplit");
    return std::make_unique<NcclCommunicator>(key, static_cast<int>(members.size()), group, device_, std::vector<std::string>{});
  }

 private:
  ncclComm_t comm_;
  int device_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t compute_ = nullptr;  // the default stream's work that timed() calls wait for
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::unique_ptr<DeviceBuffer> barrier_;
};

}  // namespace

std::unique_ptr<Communicator> connect_nccl(const RankInfo& rank, const Options& options) {
  const int device = use_cuda_device(rank.local_rank, "the nccl backend");  // before the rendezvous: no GPU fails at once
  const auto env = [](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    return v && *v ? std::optional<std::string>(v) : std::nullopt;
  };
  const FileRendezvous files(launch_directory(options.rendezvous_dir, rank, env));
  std::vector<std::string> hosts;
  for (const Peer& p : meet(files, rank, options.timeout)) hosts.push_back(p.node);
  ncclUniqueId id;
  if (rank.rank == 0) {
    nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    files.set("nccl-id", std::string(id.internal, sizeof id.internal));
  }
  if (!files.wait({"nccl-id"}, options.timeout).empty())
    throw std::runtime_error("rank 0 did not publish the NCCL id in " + files.dir() + " within the timeout");
  const std::string published = files.get("nccl-id").value_or("");
  if (published.size() != sizeof id.internal) throw std::runtime_error("the NCCL id in " + files.dir() + " is damaged");
  std::memcpy(id.internal, published.data(), sizeof id.internal);
  ncclComm_t comm;
  nccl_check(ncclCommInitRank(&comm, rank.world_size, id, rank.rank), "ncclCommInitRank");
  return std::make_unique<NcclCommunicator>(rank.rank, rank.world_size, comm, device, std::move(hosts));
}

}  // namespace sweep::comm::detail
