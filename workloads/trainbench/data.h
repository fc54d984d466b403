#pragma once
// trainbench's data, generated in the program or read from token files, and identical on every rank
// that asks for the same sample: sample g of a run is a pure function of (seed, g), or of g and the
// file. Pure: no torch here; the engine wraps these buffers into tensors. CIFAR-10 is in cifar10.h.
//
// Tokens: each sequence counts up from a random start by a random stride in [1, 4], modulo the
// vocabulary, so every token after the second follows from the two before it (a rule a GPT learns
// in a few dozen steps). Images: 3x32x32, each class a fixed sine grating of its own frequency and
// orientation under Gaussian noise, so the class is a function of the pixels.
#include <cstdint>
#include <string>
#include <vector>

namespace sweep::trainbench {

/// The first sample of data-parallel replica `replica`'s batch at step `step`: replicas take
/// consecutive batches of the one sample sequence, (step·dp + replica)·batch onwards, whatever the data.
std::uint64_t first_sample(int step, int dp, int replica, int batch);

/// Sequences [first, first + count) of length seq + 1 (inputs are [0, seq), targets [1, seq]).
std::vector<std::int64_t> synthetic_tokens(std::uint64_t seed, std::uint64_t first, int count, int seq, int vocab);

/// A token file: whitespace-separated ids, each below `vocab`. Throws std::runtime_error naming
/// file:line:column of the first bad id, or the file when it holds fewer than seq + 2 ids.
std::vector<std::int64_t> load_tokens(const std::string& path, int vocab, int seq);

/// A binary token file: little-endian uint16 ids, as nanoGPT's data/*/prepare.py writes train.bin
/// (np.uint16 tofile). Throws std::runtime_error naming the file and, for an id not below `vocab`, the
/// token's index and byte offset; or the file when its size is odd or it holds fewer than seq + 2 ids.
std::vector<std::int64_t> load_tokens_uint16(const std::string& path, int vocab, int seq);

/// Sequences [first, first + count) of length seq + 1, windows over `tokens` (wrapping around).
std::vector<std::int64_t> file_tokens(const std::vector<std::int64_t>& tokens, std::uint64_t first, int count, int seq);

struct Images {
  std::vector<float> pixels;        // count x 3 x 32 x 32
  std::vector<std::int64_t> labels;  // count, each in [0, classes)
};
Images synthetic_images(std::uint64_t seed, std::uint64_t first, int count, int classes);

}  // namespace sweep::trainbench
