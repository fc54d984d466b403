#pragma once
// CIFAR-10's binary version (https://www.cs.toronto.edu/~kriz/cifar.html, "CIFAR-10 binary version"):
// files of 3,073-byte records, each a label byte (0-9) and 3,072 pixel bytes, the 1,024 red, then
// 1,024 green, then 1,024 blue values of a 32x32 image in row-major order. Pure apart from reading the
// files: no torch here; the engine wraps the returned buffers into tensors.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "trainbench/data.h"

namespace sweep::trainbench {

inline constexpr std::size_t kCifar10RecordBytes = 3073;
inline constexpr int kCifar10Classes = 10;

/// The records of one or more batch files, concatenated in file order, as read (not yet normalised).
struct Cifar10 {
  std::vector<std::uint8_t> records;  // size() x kCifar10RecordBytes
  std::size_t size() const { return records.size() / kCifar10RecordBytes; }
};

/// The training files of a CIFAR-10 directory, in the order they are read: data_batch_1.bin to
/// data_batch_5.bin (test_batch.bin is held out, as in training).
std::vector<std::string> cifar10_training_files(const std::string& dir);

/// Reads `path`: a directory (its training files, all five required) or one batch file of any name.
/// Throws std::runtime_error naming the file and what was expected: a file that cannot be read, a
/// size that is zero or not a multiple of 3,073 bytes, or a record (0-based, with its byte offset)
/// whose label is not a CIFAR-10 class or not below `classes`, the model's output classes.
Cifar10 load_cifar10(const std::string& path, int classes);

/// Per-channel (red, green, blue) mean and standard deviation of the 50,000 CIFAR-10 training images,
/// pixels scaled to [0, 1]. Source: computed over the training set, as in fb.resnet.torch's
/// datasets/cifar10.lua ({125.3, 123.0, 113.9} and {63.0, 62.1, 66.7} out of 255) and
/// kuangliu/pytorch-cifar issue #19. The often copied std (0.2023, 0.1994, 0.2010) is the mean of the
/// per-image deviations, not the deviation of the pixels.
inline constexpr float kCifar10Mean[3] = {0.4914f, 0.4822f, 0.4465f};
inline constexpr float kCifar10Std[3] = {0.2470f, 0.2435f, 0.2616f};

/// Samples [first, first + count): sample g is record g mod size() (wrapping around), its pixels
/// p/255 normalised per channel as (p/255 - mean) / std, laid out 3x32x32 like synthetic_images.
/// `data` must hold at least one record.
Images cifar10_images(const Cifar10& data, std::uint64_t first, int count);

}  // namespace sweep::trainbench
