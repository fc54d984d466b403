#pragma once
// The data-parallel gradient all-reduce of trainbench (internal; includes torch). Gradients are
// gathered, as backward produces them, into fp32 buckets in reverse registration order (the first
// 1 MiB, then `bucket_bytes` each, as PyTorch DDP); each bucket is averaged over the data group, sent in
// fp32 or, with a bf16 wire, rounded to bf16 for the all-reduce and widened back after it. With
// overlap, a communication thread all-reduces a bucket as soon as backward has filled it, while
// backward goes on; without, all buckets are all-reduced after backward.
// On a GPU the buckets live on the device. nccl all-reduces them there, on its own stream, ordered
// after the kernels that filled them (Communicator::timed); mpi and gloo get them through pinned host
// copies. Either way a reduced bucket is complete before anything reads it.
#include <torch/torch.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "comm/communicator.h"

namespace sweep::trainbench {

/// Time spent inside communication, and the part the computation waited for.
struct CommClock {
  double seconds = 0;
  double exposed = 0;
  /// Runs calls on `group` that the computation waits for, to completion: all of their time is exposed.
  void blocking(comm::Communicator& group, const std::function<void()>& calls) {
    const double took = group.timed(calls);
    seconds += took;
    exposed += took;
  }
};

class GradientSync {
 public:
  /// `group` nullptr or of size 1: nothing to do. `backwards_per_step`: how many backward passes
  /// reach every parameter in one step (the micro-batches). Overlap needs group->concurrent().
  /// `wire`: the precision the buckets are all-reduced in (kFloat or kBFloat16). `device`: where the
  /// parameters live.
  GradientSync(const std::vector<torch::Tensor>& params, comm::Communicator* group, double bucket_bytes,
               int backwards_per_step, bool overlap, torch::ScalarType wire, torch::Device device);
  ~GradientSync();
  GradientSync(const GradientSync&) = delete;
  GradientSync& operator=(const GradientSync&) = delete;

  bool overlapping() const { return thread_.joinable(); }
  /// Before a step's backward passes: empties the buckets.
  void begin_step();
  /// After them: all-reduces what is left, waits for the thread, and writes the averaged gradients
  /// into the parameters' .grad. Adds the communication time, and the part waited for, to `clock`.
  /// Rethrows a failed collective.
  void finish(CommClock& clock);

 private:
  struct Bucket {
    std::vector<torch::Tensor> params;
    std::vector<std::int64_t> offsets;
    torch::Tensor flat;  // fp32, the sum of the gradients backward produced this step
    torch::Tensor wire;  // flat in the wire precision when that is not fp32; undefined otherwise
    torch::Tensor host;  // pinned host copy of what is sent, for a CPU backend on a GPU; undefined otherwise
    int expected = 0;    // gradient arrivals that fill it: parameters x backwards per step
    int arrived = 0;
    bool full = false;   // every arrival came, or the step's backward ended
  };
  void arrive(std::size_t bucket, std::int64_t offset, const torch::Tensor& grad);
  void reduce(Bucket& bucket);
  void loop();

  comm::Communicator* group_;
  std::vector<Bucket> buckets_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<torch::Tensor, unsigned>> hooks_;
  std::size_t reduced_ = 0;  // buckets [0, reduced_) are reduced: in index order, as on every rank
  bool stop_ = false;
  double busy_ = 0;          // seconds inside all-reduces this step
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace sweep::trainbench
