// The mpi backend: OpenMPI's collectives (the only user of MPI). fp16 and bf16 travel as 16-bit
// integers and reduce through user-defined ops; avg is a sum divided locally by the world size.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "comm/backends.h"
#include "comm/reduce.h"
#include "comm/rendezvous.h"

namespace sweep::comm::detail {
namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

template <DType Type, ReduceOp Op>
void reduce16(void* in, void* inout, int* len, MPI_Datatype*) {
  reduce_into(inout, in, static_cast<std::size_t>(*len), Type, Op);
}

struct TypeInfo {
  DType type;
  MPI_Datatype (*datatype)();
  MPI_User_function* sum;  // nullptr: MPI_SUM/MPI_MAX work natively
  MPI_User_function* max;
};

const std::array<TypeInfo, 5> kTypes{{
    {DType::fp32, [] { return MPI_FLOAT; }, nullptr, nullptr},
    {DType::fp64, [] { return MPI_DOUBLE; }, nullptr, nullptr},
    {DType::int32, [] { return MPI_INT32_T; }, nullptr, nullptr},
    {DType::fp16, [] { return MPI_UINT16_T; }, reduce16<DType::fp16, ReduceOp::sum>, reduce16<DType::fp16, ReduceOp::max>},
    {DType::bf16, [] { return MPI_UINT16_T; }, reduce16<DType::bf16, ReduceOp::sum>, reduce16<DType::bf16, ReduceOp::max>},
}};

const TypeInfo& type_info(DType type) {
  return *std::find_if(kTypes.begin(), kTypes.end(), [&](const TypeInfo& t) { return t.type == type; });
}

// Counts above this are split into several calls where the collective allows it (MPI counts are int).
constexpr std::size_t kMaxCount = std::size_t{1} << 30;

int as_int(std::size_t count, const char* what) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw std::runtime_error(std::string(what) + ": a count of " + std::to_string(count) +
                             " elements per rank exceeds MPI's limit of " + std::to_string(INT_MAX));
  return static_cast<int>(count);
}

const char* at(const void* p, std::size_t elements, DType type) { return static_cast<const char*>(p) + elements * size_of(type); }
char* at(void* p, std::size_t elements, DType type) { return static_cast<char*>(p) + elements * size_of(type); }

class MpiCommunicator final : public Communicator {
 public:
  // `comm` is MPI_COMM_WORLD, whose communicator finalizes MPI, or one of split(), which it frees.
  MpiCommunicator(MPI_Comm comm, int rank, int size, bool concurrent)
      : Communicator(rank, size), comm_(comm), concurrent_(concurrent) {
    for (const TypeInfo& t : kTypes) {
      if (!t.sum) continue;
      MPI_Op sum, max;
      check(MPI_Op_create(t.sum, 1, &sum), "MPI_Op_create");
      check(MPI_Op_create(t.max, 1, &max), "MPI_Op_create");
      user_ops_.push_back({t.type, sum, max});
    }
  }
  ~MpiCommunicator() override {
    for (auto& u : user_ops_) {
      MPI_Op_free(&u.sum);
      MPI_Op_free(&u.max);
    }
    if (comm_ == MPI_COMM_WORLD)
      MPI_Finalize();
    else
      MPI_Comm_free(&comm_);
  }

  void handshake(std::chrono::milliseconds timeout);

  std::string_view backend() const override { return "mpi"; }
  bool concurrent() const override { return concurrent_; }
  std::string library_version() const override {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string version(text, static_cast<std::size_t>(length));
    return version.substr(0, version.find_first_of(",\n"));
  }

 protected:
  void do_all_reduce(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    for (std::size_t done = 0; done < count; done += kMaxCount) {
      const int n = static_cast<int>(std::min(kMaxCount, count - done));
      const void* send = in == out ? MPI_IN_PLACE : at(in, done, type);
      check(MPI_Allreduce(send, at(out, done, type), n, type_info(type).datatype(), mpi_op(type, op), comm_),
            "MPI_Allreduce");
    }
    if (op == ReduceOp::avg) divide(out, count, type, size());
  }
  void do_all_gather(const void* in, void* out, std::size_t count, DType type) override {
    const int n = as_int(count, "all-gather");
    const MPI_Datatype t = type_info(type).datatype();
    const bool in_place = in == at(out, count * static_cast<std::size_t>(rank()), type);
    check(MPI_Allgather(in_place ? MPI_IN_PLACE : in, n, t, out, n, t, comm_), "MPI_Allgather");
  }
  void do_reduce_scatter(const void* in, void* out, std::size_t count, DType type, ReduceOp op) override {
    const int n = as_int(count, "reduce-scatter");
    const MPI_Datatype t = type_info(type).datatype();
    // In place (out is this rank's block of in): MPI leaves the result at the start of the buffer.
    const bool in_place = out == at(in, count * static_cast<std::size_t>(rank()), type);
    void* result = in_place ? const_cast<void*>(in) : out;
    check(MPI_Reduce_scatter_block(in_place ? MPI_IN_PLACE : in, result, n, t, mpi_op(type, op), comm_),
          "MPI_Reduce_scatter_block");
    if (in_place && result != out) std::memmove(out, result, count * size_of(type));
    if (op == ReduceOp::avg) divide(out, count, type, size());
  }
  void do_broadcast(const void* in, void* out, std::size_t count, DType type, int root) override {
    if (rank() == root && in != out) std::memcpy(out, in, count * size_of(type));
    for (std::size_t done = 0; done < count; done += kMaxCount) {
      const int n = static_cast<int>(std::min(kMaxCount, count - done));
      check(MPI_Bcast(at(out, done, type), n, type_info(type).datatype(), root, comm_), "MPI_Bcast");
    }
  }
  void do_all_to_all(const void* in, void* out, std::size_t count, DType type) override {
    const int n = as_int(count, "all-to-all");
    const MPI_Datatype t = type_info(type).datatype();
    check(MPI_Alltoall(in == out ? MPI_IN_PLACE : in, n, t, out, n, t, comm_), "MPI_Alltoall");
  }
  void do_send_recv(const void* in, int to, void* out, int from, std::size_t count, DType type) override {
    const int n = as_int(count, "send/recv");
    const MPI_Datatype t = type_info(type).datatype();
    check(MPI_Sendrecv(in, n, t, to, 0, out, n, t, from, 0, comm_, MPI_STATUS_IGNORE), "MPI_Sendrecv");
  }
  void do_send(const void* in, std::size_t count, DType type, int to) override {
    check(MPI_Send(in, as_int(count, "send"), type_info(type).datatype(), to, 0, comm_), "MPI_Send");
  }
  void do_recv(void* out, std::size_t count, DType type, int from) override {
    check(MPI_Recv(out, as_int(count, "recv"), type_info(type).datatype(), from, 0, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv");
  }
  void do_barrier() override { check(MPI_Barrier(comm_), "MPI_Barrier"); }
  void host_all_gather(const std::int32_t* in, std::int32_t* out, std::size_t count) override {
    do_all_gather(in, out, count, DType::int32);
  }
  std::unique_ptr<Communicator> do_split(int color, const std::vector<int>& members) override {
    const int key = static_cast<int>(std::find(members.begin(), members.end(), rank()) - members.begin());
    MPI_Comm group;
    check(MPI_Comm_split(comm_, color, key, &group), "MPI_Comm_split");
    return std::make_unique<MpiCommunicator>(group, key, static_cast<int>(members.size()), concurrent_);
  }

 private:
  struct UserOps {
    DType type;
    MPI_Op sum;
    MPI_Op max;
  };

  MPI_Op mpi_op(DType type, ReduceOp op) const {
    for (const auto& u : user_ops_)
      if (u.type == type) return op == ReduceOp::max ? u.max : u.sum;
    return op == ReduceOp::max ? MPI_MAX : MPI_SUM;
  }

  MPI_Comm comm_;
  bool concurrent_;
  std::vector<UserOps> user_ops_;
};

// Polls requests until all complete or the deadline passes; returns the indexes still pending.
std::vector<int> wait_until(std::vector<MPI_Request>& requests, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    std::vector<int> pending;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      int done = 0;
      check(MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (!done) pending.push_back(static_cast<int>(i));
    }
    if (pending.empty() || std::chrono::steady_clock::now() >= deadline) return pending;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

constexpr int kHostBytes = 256;

}  // namespace

// Every rank sends its host name to rank 0, which names the ranks that did not arrive in time and then
// sends the list of hosts back.
void MpiCommunicator::handshake(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const std::size_t n = static_cast<std::size_t>(size());
  std::vector<char> all(n * kHostBytes, 0);
  std::vector<char> mine(kHostBytes, 0);
  const std::string own = node_name().substr(0, kHostBytes - 1);
  std::memcpy(mine.data(), own.data(), own.size());
  if (rank() == 0) std::memcpy(all.data(), mine.data(), kHostBytes);
  std::vector<MPI_Request> requests;
  if (rank() == 0) {
    for (std::size_t r = 1; r < n; ++r) {
      requests.emplace_back();
      MPI_Irecv(all.data() + r * kHostBytes, kHostBytes, MPI_CHAR, static_cast<int>(r), 1, MPI_COMM_WORLD, &requests.back());
    }
    const auto pending = wait_until(requests, deadline);
    if (!pending.empty()) {
      std::string ranks;
      for (int i : pending) ranks += (ranks.empty() ? "" : ", ") + std::to_string(i + 1);
      throw std::runtime_error("rank(s) " + ranks + " of " + std::to_string(n) + " did not arrive within the timeout");
    }
  } else {
    requests.emplace_back();
    MPI_Isend(mine.data(), kHostBytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
              &requests.back());
    requests.emplace_back();
    MPI_Irecv(all.data(), static_cast<int>(n * kHostBytes), MPI_CHAR, 0, 2, MPI_COMM_WORLD, &requests.back());
    if (!wait_until(requests, deadline).empty())
      throw std::runtime_error("rank 0 of " + std::to_string(n) + " did not answer within the timeout");
  }
  if (rank() == 0)
    for (std::size_t r = 1; r < n; ++r)
      check(MPI_Send(all.data(), static_cast<int>(n * kHostBytes), MPI_CHAR, static_cast<int>(r), 2, MPI_COMM_WORLD),
            "MPI_Send");
  std::vector<std::string> hosts;
  for (std::size_t r = 0; r < n; ++r) hosts.emplace_back(all.data() + r * kHostBytes);
  set_hosts(std::move(hosts));
}

std::unique_ptr<Communicator> connect_mpi(const RankInfo& info, const Options& options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  int level = MPI_THREAD_SINGLE;
  if (!initialized) {
    const int wanted = options.concurrent ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE;
    check(MPI_Init_thread(nullptr, nullptr, wanted, &level), "MPI_Init_thread");
  } else {
    MPI_Query_thread(&level);
  }
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (info.source != "none" && (info.world_size != size || info.rank != rank))
    throw std::runtime_error("MPI says rank " + std::to_string(rank) + " of " + std::to_string(size) + ", but the " +
                             info.source + " variables say rank " + std::to_string(info.rank) + " of " +
                             std::to_string(info.world_size) + " (mismatched world size)");
  auto comm = std::make_unique<MpiCommunicator>(MPI_COMM_WORLD, rank, size, level == MPI_THREAD_MULTIPLE);
  comm->handshake(options.timeout);
  return comm;
}

}  // namespace sweep::comm::detail
