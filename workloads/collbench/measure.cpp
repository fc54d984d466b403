#include "collbench/measure.h"

#include <algorithm>
#include <cstring>

#include "collbench/collective.h"
#include "collbench/pattern.h"

namespace sweep::collbench {
namespace {

using comm::Collective;

// The device (or host) buffers, sized once for the largest message.
struct Buffers {
  std::unique_ptr<comm::Buffer> in, out, scalars;
};

// Where one variant reads and writes, following nccl-tests' in-place conventions: all-gather's input
// is the rank's block of the output, reduce-scatter's output is the rank's block of the input.
struct Placement {
  void* in;
  void* out;
};

Placement place(Buffers& b, const Case& c, bool in_place) {
  if (!in_place) return {b.in->data(), b.out->data()};
  const std::size_t block = c.shape.count * comm::size_of(c.type) * static_cast<std::size_t>(c.rank);
  switch (collective(c.op).in_place) {
    case InPlace::input_in_output: return {static_cast<char*>(b.out->data()) + block, b.out->data()};
    case InPlace::output_in_input: return {b.in->data(), static_cast<char*>(b.in->data()) + block};
    default: return {b.out->data(), b.out->data()};
  }
}

void call(comm::Communicator& comm, const Case& c, Placement p) {
  if (c.op == Collective::barrier) return comm.barrier();
  collective(c.op).call(comm, c, p.in, p.out);
}

// Combines one value per rank with `op` through the communicator itself (fp64).
double across_ranks(comm::Communicator& comm, Buffers& b, double value, comm::ReduceOp op) {
  b.scalars->upload(&value, sizeof value);
  comm.all_reduce(b.scalars->data(), b.scalars->data(), 1, comm::DType::fp64, op);
  comm.synchronize();
  b.scalars->download(&value, sizeof value);
  return value;
}

// Loads the inputs (and poisons the output) for one variant, runs it once, and counts wrong elements.
std::uint64_t checked_call(comm::Communicator& comm, Buffers& b, const Case& c, bool in_place) {
  const std::size_t es = comm::size_of(c.type);
  const std::vector<char> input = collbench::input(c);
  const InPlace layout = in_place ? collective(c.op).in_place : InPlace::none;
  const Placement p = place(b, c, in_place);
  if (layout == InPlace::input_in_output) {
    std::vector<char> image = poison(c.type, c.shape.out_elems);
    std::memcpy(image.data() + static_cast<std::size_t>(c.rank) * c.shape.count * es, input.data(), input.size());
    b.out->upload(image.data(), image.size());
  } else if (layout == InPlace::same_buffer) {
    b.out->upload(input.data(), input.size());
  } else {
    b.in->upload(input.data(), input.size());
    if (!in_place) b.out->upload(poison(c.type, c.shape.out_elems).data(), c.shape.out_elems * es);
  }
  call(comm, c, p);
  comm.synchronize();
  const bool in_input = layout == InPlace::output_in_input;
  std::vector<char> result((in_input ? c.shape.in_elems : c.shape.out_elems) * es);
  (in_input ? b.in : b.out)->download(result.data(), result.size());
  const std::size_t offset = in_input ? static_cast<std::size_t>(c.rank) * c.shape.count * es : 0;
  return count_wrong(c, result.data() + offset);
}

Timing measure(comm::Communicator& comm, Buffers& b, const Case& c, const Options& o, bool in_place) {
  Timing t;
  if (o.check && checkable(c)) {
    const auto wrong = checked_call(comm, b, c, in_place);
    t.wrong = static_cast<std::uint64_t>(across_ranks(comm, b, static_cast<double>(wrong), comm::ReduceOp::sum));
  }
  const Placement p = place(b, c, in_place);
  for (int i = 0; i < o.warmup; ++i) call(comm, c, p);
  comm.synchronize();
  comm.barrier();
  // To completion: CUDA events around the calls on nccl's stream, a host clock on the host backends.
  const double us = comm.timed([&] {
    for (int i = 0; i < o.iters; ++i) call(comm, c, p);
  }) * 1e6 / o.iters;
  t.max_us = across_ranks(comm, b, us, comm::ReduceOp::max);
  t.min_us = -across_ranks(comm, b, -us, comm::ReduceOp::max);
  t.avg_us = across_ranks(comm, b, us, comm::ReduceOp::sum) / comm.size();
  return t;
}

Case case_for(const comm::Communicator& comm, const Options& o, std::uint64_t bytes) {
  return Case{o.op, o.dtype, o.redop, comm.size(), comm.rank(), o.root, shape_for(o.op, bytes, o.dtype, comm.size())};
}

}  // namespace

std::vector<Row> run_sizes(comm::Communicator& comm, const Options& o, std::FILE* out) {
  const auto sizes = size_steps(o.min_bytes, o.max_bytes, o.factor);
  const Case largest = case_for(comm, o, sizes.back());
  const std::size_t es = comm::size_of(o.dtype);
  Buffers b{comm.allocate(largest.shape.in_elems * es), comm.allocate(largest.shape.out_elems * es),
            comm.allocate(sizeof(double))};
  std::vector<Row> rows;
  for (std::uint64_t bytes : sizes) {
    const Case c = case_for(comm, o, bytes);
    Row row{c.shape, measure(comm, b, c, o, false), std::nullopt};
    if (o.inplace) row.in_place = measure(comm, b, c, o, true);
    if (comm.rank() == 0) {
      std::fputs(table_row(o, comm.size(), row).c_str(), out);
      std::fputs(metric_lines(o, comm.size(), rows.size(), row).c_str(), out);
      std::fflush(out);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace sweep::collbench
