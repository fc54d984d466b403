// staged.h over the CUDA runtime: device buffers with pinned host shadows of the same size. A call
// finds the buffers its pointers fall in, copies the bytes it reads to the shadows, runs the host
// backend on the shadows at the same offsets, and copies the bytes it writes back to the device.
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "comm/staged.h"

namespace sweep::comm {
namespace {

void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorString(code));
}

// Where every live staged buffer's device bytes have their host shadow.
class Shadows {
 public:
  void add(void* device, void* host, std::size_t bytes) {
    std::lock_guard lock(mutex_);
    spans_[static_cast<char*>(device)] = {static_cast<char*>(host), bytes};
  }
  void remove(void* device) {
    std::lock_guard lock(mutex_);
    spans_.erase(static_cast<char*>(device));
  }
  /// The host address of device address `p`, whose `bytes` must lie inside one staged buffer.
  char* host_of(const void* p, std::size_t bytes) const {
    std::lock_guard lock(mutex_);
    const char* at = static_cast<const char*>(p);
    auto it = spans_.upper_bound(const_cast<char*>(at));
    if (it == spans_.begin()) throw std::runtime_error("a staged collective got memory that allocate() did not give");
    --it;
    const std::size_t offset = static_cast<std::size_t>(at - it->first);
    if (offset + bytes > it->second.second)
      throw std::runtime_error("a staged collective reaches past the end of its buffer");
    return it->second.first + offset;
  }

 private:
  mutable std::mutex mutex_;
  std::map<char*, std::pair<char*, std::size_t>> spans_;
};

class StagedBuffer final : public Buffer {
 public:
  StagedBuffer(std::size_t bytes, Shadows& shadows) : shadows_(shadows) {
    bytes_ = bytes;
    const std::size_t size = bytes == 0 ? 1 : bytes;
    check(cudaMalloc(&data_, size), "cudaMalloc");
    check(cudaMallocHost(&host_, size), "cudaMallocHost");
    check(cudaMemset(data_, 0, size), "cudaMemset");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    shadows_.add(data_, host_, size);
  }
  ~StagedBuffer() override {
    shadows_.remove(data_);
    cudaFreeHost(host_);
    cudaFree(data_);
  }
  void upload(const void* host, std::size_t bytes) override {
    check(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  }
  void download(void* host, std::size_t bytes) const override {
    check(cudaMemcpy(host, data_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
  }

 private:
  Shadows& shadows_;
  void* host_ = nullptr;
};

class StagedCommunicator final : public Communicator {
 public:
  StagedCommunicator(std::unique_ptr<Communicator> host, int device)
      : Communicator(host->rank(), host->size()), host_(std::move(host)), device_(device) {
    set_hosts(host_->hosts());
  }
  std::string_view backend() const override { return host_->backend(); }
  std::string library_version() const override { return host_->library_version(); }
  std::unique_ptr<Buffer> allocate(std::size_t bytes) override { return std::make_unique<StagedBuffer>(bytes, shadows_); }
  bool device_memory() const override { return true; }

 protected:
  void do_all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    const std::size_t b = count * size_of(type);
    host_->all_reduce(to_host(in, b), from_host_later(out, b), count, type, op);
    back(out, b);
  }
  void do_all_gather(const void* in, void* out, std::size_t count, DType type) override {
    const std::size_t b = count * size_of(type);
    host_->all_gather(to_host(in, b), from_host_later(out, b * n()), count, type);
    back(out, b * n());
  }
  void do_reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    const std::size_t b = count * size_of(type);
    host_->reduce_scatter(to_host(in, b * n()), from_host_later(out, b), count, type, op);
    back(out, b);
  }
  void do_broadcast(const void* in, void* out, std::size_t count, DType type, int root) override {
    const std::size_t b = count * size_of(type);
    host_->broadcast(to_host(in, b), from_host_later(out, b), count, type, root);
    back(out, b);
  }
  void do_all_to_all(const void* in, void* out, std::size_t count, DType type) override {
    const std::size_t b = count * size_of(type) * n();
    host_->all_to_all(to_host(in, b), from_host_later(out, b), count, type);
    back(out, b);
  }
  void do_send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) override {
    const std::size_t b = count * size_of(type);
    host_->send_recv(to_host(in, b), to, from_host_later(out, b), from, count, type);
    back(out, b);
  }
  void do_send(const void* in, std::size_t count, DType type, int to) override {
    host_->send(to_host(in, count * size_of(type)), count, type, to);
  }
  void do_recv(void* out, std::size_t count, DType type, int from) override {
    const std::size_t b = count * size_of(type);
    host_->recv(from_host_later(out, b), count, type, from);
    back(out, b);
  }
  void do_barrier() override { host_->barrier(); }
  // Through the host backend's own all-gather (what its host_all_gather is); counted there, not here.
  void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) override {
    host_->all_gather(in, out, count, DType::int32);
  }
  std::unique_ptr<Communicator> do_split(int color, const std::vector<int>& members) override {
    const int key = static_cast<int>(std::find(members.begin(), members.end(), rank()) - members.begin());
    return std::make_unique<StagedCommunicator>(host_->split(color, key), device_);
  }

 private:
  std::size_t n() const { return static_cast<std::size_t>(size()); }
  // The host shadow of `device`'s first `bytes`, filled from the device.
  char* to_host(const void* device, std::size_t bytes) {
    char* host = shadows_.host_of(device, bytes);
    check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
    return host;
  }
  // The host shadow that the host backend writes, copied to the device by back().
  char* from_host_later(void* device, std::size_t bytes) { return shadows_.host_of(device, bytes); }
  void back(void* device, std::size_t bytes) {
    check(cudaMemcpy(device, shadows_.host_of(device, bytes), bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  }

  std::unique_ptr<Communicator> host_;
  int device_;
  Shadows shadows_;
};

}  // namespace

std::unique_ptr<Communicator> staged_on_device(std::unique_ptr<Communicator> host, int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  return std::make_unique<StagedCommunicator>(std::move(host), device);
}

}  // namespace sweep::comm
