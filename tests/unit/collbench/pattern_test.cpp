#include <catch2/catch.hpp>

#include <vector>

#include "collbench/pattern.h"
#include "comm/reduce.h"

using namespace sweep::collbench;
using namespace sweep::comm;

namespace {

Case make(Collective op, DType t, ReduceOp redop, int ranks, int rank, std::uint64_t bytes) {
  return Case{op, t, redop, ranks, rank, 0, shape_for(op, bytes, t, ranks)};
}

// The all-reduce of every rank's input, computed here with the backends' own kernels.
std::vector<char> all_reduce_by_hand(Collective op, DType t, ReduceOp redop, int ranks, std::uint64_t bytes) {
  std::vector<char> acc = input(make(op, t, redop, ranks, 0, bytes));
  for (int r = 1; r < ranks; ++r) {
    const auto in = input(make(op, t, redop, ranks, r, bytes));
    reduce_into(acc.data(), in.data(), acc.size() / size_of(t), t, redop);
  }
  if (redop == ReduceOp::avg) divide(acc.data(), acc.size() / size_of(t), t, ranks);
  return acc;
}

}  // namespace

TEST_CASE("the exact all-reduce of the inputs has no wrong elements, in every dtype and op") {
  for (DType t : {DType::fp32, DType::fp16, DType::bf16, DType::fp64, DType::int32})
    for (ReduceOp op : {ReduceOp::sum, ReduceOp::avg, ReduceOp::max})
      for (int ranks : {2, 3, 8}) {
        const auto c = make(Collective::allreduce, t, op, ranks, 1, 4096);
        REQUIRE(checkable(c));
        const auto out = all_reduce_by_hand(Collective::allreduce, t, op, ranks, 4096);
        INFO(name_of(t) << " " << name_of(op) << " ranks " << ranks);
        CHECK(count_wrong(c, out.data()) == 0);
      }
}

TEST_CASE("wrong, missing and local-only results are counted") {
  const auto c = make(Collective::allreduce, DType::fp32, ReduceOp::sum, 4, 0, 400);
  auto out = all_reduce_by_hand(Collective::allreduce, DType::fp32, ReduceOp::sum, 4, 400);
  store(out.data(), 7, DType::fp32, load(out.data(), 7, DType::fp32) + 1);
  CHECK(count_wrong(c, out.data()) == 1);
  const auto untouched = poison(DType::fp32, c.shape.out_elems);
  CHECK(count_wrong(c, untouched.data()) == c.shape.out_elems);
  const auto own_only = input(c);  // a backend that forgot to reduce
  CHECK(count_wrong(c, own_only.data()) > 0);
  const auto avg = make(Collective::allreduce, DType::fp32, ReduceOp::avg, 4, 0, 400);
  CHECK(count_wrong(avg, input(avg).data()) == c.shape.out_elems);  // every rank's values differ from the mean
}

TEST_CASE("all-gather and all-to-all expect each rank's block in its place") {
  const int ranks = 3;
  const auto gather = make(Collective::allgather, DType::bf16, ReduceOp::sum, ranks, 1, 600);
  std::vector<char> out;
  for (int r = 0; r < ranks; ++r) {
    const auto in = input(make(Collective::allgather, DType::bf16, ReduceOp::sum, ranks, r, 600));
    out.insert(out.end(), in.begin(), in.end());
  }
  CHECK(count_wrong(gather, out.data()) == 0);
  std::swap_ranges(out.begin(), out.begin() + 4, out.begin() + static_cast<long>(out.size() / 3));  // blocks 0, 1 mixed up
  CHECK(count_wrong(gather, out.data()) > 0);

  const auto a2a = make(Collective::alltoall, DType::int32, ReduceOp::sum, ranks, 2, 1200);
  const std::size_t count = a2a.shape.count;
  std::vector<char> received(a2a.shape.out_elems * 4);
  for (int r = 0; r < ranks; ++r) {  // block r comes from rank r's block 2
    const auto in = input(make(Collective::alltoall, DType::int32, ReduceOp::sum, ranks, r, 1200));
    std::copy_n(in.begin() + static_cast<long>(2 * count * 4), count * 4, received.begin() + static_cast<long>(r * count * 4));
  }
  CHECK(count_wrong(a2a, received.data()) == 0);
}

TEST_CASE("bf16 avg on many ranks cannot be checked exactly and says so") {
  CHECK(checkable(make(Collective::allreduce, DType::bf16, ReduceOp::avg, 8, 0, 64)));
  CHECK_FALSE(checkable(make(Collective::allreduce, DType::bf16, ReduceOp::avg, 16, 0, 64)));
  CHECK(checkable(make(Collective::allreduce, DType::fp32, ReduceOp::avg, 1024, 0, 64)));
  CHECK(checkable(make(Collective::broadcast, DType::bf16, ReduceOp::sum, 4096, 0, 64)));
}
