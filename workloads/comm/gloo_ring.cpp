#include "comm/gloo_ring.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include <gloo/transport/unbound_buffer.h>

#include "comm/reduce.h"

namespace sweep::comm::detail {
namespace {

// Reductions proceed in segments of this size, so the next segment travels while one is reduced.
constexpr std::size_t kSegmentBytes = std::size_t{1} << 20;

int ring_index(int i, int n) { return ((i % n) + n) % n; }

char* bytes(void* p, std::size_t elements, std::size_t element_size) { return static_cast<char*>(p) + elements * element_size; }
const char* bytes(const void* p, std::size_t elements, std::size_t element_size) {
  return static_cast<const char*>(p) + elements * element_size;
}

}  // namespace

void ring_reduce_scatter(gloo::Context& context, const void* in, void* acc, void* result, const Partition& blocks,
                         DType type, ReduceOp op, std::vector<char>& scratch) {
  const int n = context.size, r = context.rank;
  const std::size_t es = size_of(type);
  if (n == 1) {
    if (result != in) std::memmove(result, in, blocks.count * es);
    return;
  }
  const std::size_t segment = std::max<std::size_t>(1, kSegmentBytes / es);
  scratch.resize(std::max(scratch.size(), 2 * segment * es));
  auto from_in = context.createUnboundBuffer(const_cast<void*>(in), blocks.count * es);
  auto from_acc = context.createUnboundBuffer(acc, blocks.count * es);
  std::array<std::unique_ptr<gloo::transport::UnboundBuffer>, 2> landing{
      context.createUnboundBuffer(scratch.data(), segment * es),
      context.createUnboundBuffer(scratch.data() + segment * es, segment * es)};
  const int right = ring_index(r + 1, n), left = ring_index(r - 1, n);
  const auto slot = context.nextSlot();
  for (int step = 0; step < n - 1; ++step) {
    // Send the block reduced in the previous step (this rank's own data at step 0).
    auto& source = step == 0 ? from_in : from_acc;
    const int send_block = ring_index(r - step - 1, n);
    std::size_t sends = 0;
    for (std::size_t off = 0; off < blocks.size(send_block); off += segment, ++sends)
      source->send(right, slot, (blocks.begin(send_block) + off) * es,
                   std::min(segment, blocks.size(send_block) - off) * es);
    // Receive the left neighbour's partial block and add this rank's data to it.
    const int recv_block = ring_index(r - step - 2, n);
    const std::size_t size = blocks.size(recv_block);
    const std::size_t segments = (size + segment - 1) / segment;
    void* dst = step == n - 2 ? result : bytes(acc, blocks.begin(recv_block), es);
    const void* own = bytes(in, blocks.begin(recv_block), es);
    const auto length = [&](std::size_t k) { return std::min(segment, size - k * segment); };
    for (std::size_t k = 0; k < std::min<std::size_t>(2, segments); ++k) landing[k]->recv(left, slot, 0, length(k) * es);
    for (std::size_t k = 0; k < segments; ++k) {
      landing[k % 2]->waitRecv();
      combine(bytes(dst, k * segment, es), bytes(own, k * segment, es), scratch.data() + (k % 2) * segment * es,
              length(k), type, op);
      if (k + 2 < segments) landing[k % 2]->recv(left, slot, 0, length(k + 2) * es);
    }
    for (std::size_t i = 0; i < sends; ++i) source->waitSend();
  }
}

void ring_all_gather(gloo::Context& context, void* out, const Partition& blocks, std::size_t es) {
  const int n = context.size, r = context.rank;
  if (n == 1) return;
  auto buffer = context.createUnboundBuffer(out, blocks.count * es);
  const int right = ring_index(r + 1, n), left = ring_index(r - 1, n);
  const auto slot = context.nextSlot();
  for (int step = 0; step < n - 1; ++step) {
    const int send_block = ring_index(r - step, n), recv_block = ring_index(r - step - 1, n);
    const bool sending = blocks.size(send_block) > 0;
    if (sending) buffer->send(right, slot, blocks.begin(send_block) * es, blocks.size(send_block) * es);
    if (blocks.size(recv_block) > 0) {
      buffer->recv(left, slot, blocks.begin(recv_block) * es, blocks.size(recv_block) * es);
      buffer->waitRecv();
    }
    if (sending) buffer->waitSend();
  }
}

}  // namespace sweep::comm::detail
