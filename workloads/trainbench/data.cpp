#include "trainbench/data.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sweep::trainbench {
namespace {

// splitmix64: a fixed, platform-independent stream per (seed, sample).
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double normal() {  // Box-Muller
    const double u = 1.0 - uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
  }
};

Rng sample_rng(std::uint64_t seed, std::uint64_t sample) {
  Rng mix{seed ^ (sample * 0xd1b54a32d192ed03ull)};
  return Rng{mix.next()};
}

constexpr int kSide = 32, kChannels = 3;

// A sequence of seq inputs and its targets takes seq + 1 ids; the windows need one more to differ.
void check_enough(const std::string& path, std::size_t ids, int seq) {
  if (ids < static_cast<std::size_t>(seq) + 2)
    throw std::runtime_error(path + ": holds " + std::to_string(ids) + " token ids; a sequence of " +
                             std::to_string(seq) + " needs at least " + std::to_string(seq + 2));
}

}  // namespace

std::uint64_t first_sample(int step, int dp, int replica, int batch) {
  return (static_cast<std::uint64_t>(step) * static_cast<std::uint64_t>(dp) + static_cast<std::uint64_t>(replica)) *
         static_cast<std::uint64_t>(batch);
}

std::vector<std::int64_t> synthetic_tokens(std::uint64_t seed, std::uint64_t first, int count, int seq, int vocab) {
  const auto length = static_cast<std::size_t>(seq) + 1;
  std::vector<std::int64_t> tokens(static_cast<std::size_t>(count) * length);
  for (int s = 0; s < count; ++s) {
    Rng rng = sample_rng(seed, first + static_cast<std::uint64_t>(s));
    const auto start = static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(vocab));
    const auto stride = static_cast<std::int64_t>(1 + rng.next() % 4);
    for (std::size_t t = 0; t < length; ++t)
      tokens[static_cast<std::size_t>(s) * length + t] = (start + stride * static_cast<std::int64_t>(t)) % vocab;
  }
  return tokens;
}

std::vector<std::int64_t> load_tokens(const std::string& path, int vocab, int seq) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::vector<std::int64_t> tokens;
  std::string line;
  for (int row = 1; std::getline(in, line); ++row) {
    std::size_t i = 0;
    while (i < line.size()) {
      if (std::isspace(static_cast<unsigned char>(line[i]))) {
        ++i;
        continue;
      }
      const std::size_t begin = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      const std::string word = line.substr(begin, i - begin);
      std::size_t used = 0;
      long long id = -1;
      try {
        id = std::stoll(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || id < 0 || id >= vocab)
        throw std::runtime_error(path + ":" + std::to_string(row) + ":" + std::to_string(begin + 1) + ": \"" + word +
                                 "\" is not a token id in [0, " + std::to_string(vocab) + ")");
      tokens.push_back(id);
    }
  }
  check_enough(path, tokens.size(), seq);
  return tokens;
}

std::vector<std::int64_t> load_tokens_uint16(const std::string& path, int vocab, int seq) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() % 2 != 0)
    throw std::runtime_error(path + ": " + std::to_string(bytes.size()) +
                             " bytes is not a whole number of 2-byte token ids (uint16, little-endian)");
  std::vector<std::int64_t> tokens(bytes.size() / 2);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    tokens[i] = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    if (tokens[i] >= vocab)
      throw std::runtime_error(path + ": token " + std::to_string(i) + " (byte offset " + std::to_string(2 * i) + "): id " +
                               std::to_string(tokens[i]) + " is not below the vocabulary of " + std::to_string(vocab) +
                               " (give --vocab)");
  }
  check_enough(path, tokens.size(), seq);
  return tokens;
}

std::vector<std::int64_t> file_tokens(const std::vector<std::int64_t>& tokens, std::uint64_t first, int count, int seq) {
  const auto length = static_cast<std::size_t>(seq) + 1;
  const std::size_t starts = tokens.size() - length + 1;
  std::vector<std::int64_t> out(static_cast<std::size_t>(count) * length);
  for (int s = 0; s < count; ++s) {
    const std::size_t begin = ((first + static_cast<std::uint64_t>(s)) * static_cast<std::size_t>(seq)) % starts;
    for (std::size_t t = 0; t < length; ++t) out[static_cast<std::size_t>(s) * length + t] = tokens[begin + t];
  }
  return out;
}

Images synthetic_images(std::uint64_t seed, std::uint64_t first, int count, int classes) {
  Images images;
  const std::size_t per_image = kChannels * kSide * kSide;
  images.pixels.resize(static_cast<std::size_t>(count) * per_image);
  images.labels.resize(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) {
    Rng rng = sample_rng(seed, first + static_cast<std::uint64_t>(s));
    const int label = static_cast<int>(rng.next() % static_cast<std::uint64_t>(classes));
    images.labels[static_cast<std::size_t>(s)] = label;
    const double angle = M_PI * label / classes, frequency = 0.2 + 0.05 * label;
    const double cx = std::cos(angle) * frequency, cy = std::sin(angle) * frequency;
    float* image = images.pixels.data() + static_cast<std::size_t>(s) * per_image;
    for (int c = 0; c < kChannels; ++c)
      for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x)
          image[(c * kSide + y) * kSide + x] =
              static_cast<float>(std::sin(2 * M_PI * (cx * x + cy * y) + c) + 0.5 * rng.normal());
  }
  return images;
}

}  // namespace sweep::trainbench
