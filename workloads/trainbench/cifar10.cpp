#include "trainbench/cifar10.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace sweep::trainbench {
namespace {

constexpr int kSide = 32, kPlane = kSide * kSide;

std::string counted(std::uintmax_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

// The size of a batch file, checked to be a positive multiple of the record size.
std::uintmax_t checked_size(const std::string& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error)) throw std::runtime_error(file + ": cannot be read (no such file)");
  if (!std::filesystem::is_regular_file(file, error)) throw std::runtime_error(file + ": cannot be read (not a regular file)");
  const std::uintmax_t bytes = std::filesystem::file_size(file, error);
  if (error) throw std::runtime_error(file + ": cannot be read (" + error.message() + ")");
  if (bytes == 0) throw std::runtime_error(file + ": is empty; a CIFAR-10 batch holds 3,073-byte records");
  if (bytes % kCifar10RecordBytes != 0)
    throw std::runtime_error(file + ": " + std::to_string(bytes) + " bytes is not a whole number of 3,073-byte "
                             "CIFAR-10 records (a label byte and 3,072 pixel bytes): " + counted(bytes % kCifar10RecordBytes, "byte") +
                             " left over after " + counted(bytes / kCifar10RecordBytes, "record") +
                             " (the binary version, not the python one?)");
  return bytes;
}

// Every label of records [first, size()) read from `file` must be a class of CIFAR-10 and of the model.
void check_labels(const Cifar10& data, std::size_t first, const std::string& file, int classes) {
  for (std::size_t r = first; r < data.size(); ++r) {
    const int label = data.records[r * kCifar10RecordBytes];
    if (label < kCifar10Classes && label < classes) continue;
    const std::size_t offset = (r - first) * kCifar10RecordBytes;
    const std::string where = file + ": record " + std::to_string(r - first) + " (byte offset " + std::to_string(offset) + "): ";
    if (label >= kCifar10Classes)
      throw std::runtime_error(where + "label " + std::to_string(label) + " is not a CIFAR-10 class (0 to 9)");
    throw std::runtime_error(where + "label " + std::to_string(label) + ", but the model has " + std::to_string(classes) +
                             " classes (0 to " + std::to_string(classes - 1) + ")");
  }
}

// Appends the records of one batch file to `data`.
void append_file(const std::string& file, int classes, Cifar10& data) {
  const std::uintmax_t bytes = checked_size(file);
  const std::size_t first = data.size(), at = data.records.size();
  data.records.resize(at + static_cast<std::size_t>(bytes));
  std::ifstream in(file, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(data.records.data() + at), static_cast<std::streamsize>(bytes)))
    throw std::runtime_error(file + ": cannot be read (" + std::to_string(bytes) + " bytes expected)");
  check_labels(data, first, file, classes);
}

}  // namespace

std::vector<std::string> cifar10_training_files(const std::string& dir) {
  std::vector<std::string> files;
  for (int i = 1; i <= 5; ++i) files.push_back((std::filesystem::path(dir) / ("data_batch_" + std::to_string(i) + ".bin")).string());
  return files;
}

Cifar10 load_cifar10(const std::string& path, int classes) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw std::runtime_error(path + ": cannot be read (no such file or directory)");
  const bool dir = std::filesystem::is_directory(path, error);
  Cifar10 data;
  for (const std::string& file : dir ? cifar10_training_files(path) : std::vector<std::string>{path}) {
    try {
      append_file(file, classes, data);
    } catch (const std::runtime_error& e) {
      if (!dir || std::filesystem::exists(file, error)) throw;
      throw std::runtime_error(std::string(e.what()) +
                               "; a CIFAR-10 directory holds data_batch_1.bin to data_batch_5.bin (the binary version)");
    }
  }
  return data;
}

Images cifar10_images(const Cifar10& data, std::uint64_t first, int count) {
  Images images;
  const std::size_t per_image = 3 * kPlane;
  images.pixels.resize(static_cast<std::size_t>(count) * per_image);
  images.labels.resize(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) {
    const std::uint64_t record = (first + static_cast<std::uint64_t>(s)) % data.size();
    const std::uint8_t* in = data.records.data() + record * kCifar10RecordBytes;
    images.labels[static_cast<std::size_t>(s)] = in[0];
    float* out = images.pixels.data() + static_cast<std::size_t>(s) * per_image;
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < kPlane; ++i)
        out[c * kPlane + i] = (static_cast<float>(in[1 + c * kPlane + i]) / 255.0f - kCifar10Mean[c]) / kCifar10Std[c];
  }
  return images;
}

}  // namespace sweep::trainbench
