// CIFAR-10's binary version, read from small files written here: what each sample holds after
// normalisation, which records each data-parallel replica reads, and the errors for a bad file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "temp_dir.h"
#include "trainbench/cifar10.h"

using namespace sweep::trainbench;

namespace {

// One record: the label, then red all `red`, green all 255 - red, and blue counting 0, 1, ... mod 256.
std::string record(int label, int red) {
  std::string r(kCifar10RecordBytes, '\0');
  r[0] = static_cast<char>(label);
  for (int i = 0; i < 1024; ++i) {
    r[1 + i] = static_cast<char>(red);
    r[1 + 1024 + i] = static_cast<char>(255 - red);
    r[1 + 2048 + i] = static_cast<char>(i % 256);
  }
  return r;
}

std::string write(const TempDir& tmp, const std::string& name, const std::string& bytes) {
  std::ofstream(tmp.path / name, std::ios::binary) << bytes;
  return tmp.file(name);
}

float pixel(const Images& im, int sample, int channel, int y, int x) {
  return im.pixels[static_cast<std::size_t>(((sample * 3 + channel) * 32 + y) * 32 + x)];
}

}  // namespace

TEST_CASE("CIFAR-10 records become normalised 3x32x32 images with their labels") {
  const TempDir tmp;
  const auto file = write(tmp, "batch.bin", record(3, 0) + record(7, 255) + record(0, 51));
  const Cifar10 data = load_cifar10(file, 10);
  REQUIRE(data.size() == 3);
  const Images im = cifar10_images(data, 0, 3);
  REQUIRE(im.pixels.size() == 3u * 3 * 32 * 32);
  CHECK(im.labels == std::vector<std::int64_t>{3, 7, 0});
  // (p/255 - mean) / std with mean (0.4914, 0.4822, 0.4465) and std (0.2470, 0.2435, 0.2616).
  CHECK(pixel(im, 0, 0, 5, 9) == Approx(-1.989474));   // red 0: -0.4914/0.2470
  CHECK(pixel(im, 0, 1, 31, 31) == Approx(2.126489));  // green 255: 0.5178/0.2435
  CHECK(pixel(im, 1, 0, 0, 0) == Approx(2.059109));    // red 255: 0.5086/0.2470
  CHECK(pixel(im, 2, 0, 0, 0) == Approx(-1.179757));   // red 51 = 0.2: -0.2914/0.2470
  // Blue holds i mod 256 at row-major index i = 32y + x: row 1, column 19 is 51.
  CHECK(pixel(im, 0, 2, 1, 19) == Approx(-0.942278));  // (0.2 - 0.4465)/0.2616
  CHECK(pixel(im, 0, 2, 0, 0) == Approx(-1.706804));   // blue 0: -0.4465/0.2616
}

TEST_CASE("each replica reads the samples the synthetic path gives it, wrapping around the file") {
  const TempDir tmp;
  std::string bytes;
  for (int label = 0; label < 5; ++label) bytes += record(label, label);  // record r has label r
  const Cifar10 data = load_cifar10(write(tmp, "five.bin", bytes), 10);
  // dp 2, batch 2: step 0 gives replica 0 samples 0-1 and replica 1 samples 2-3; step 1 gives
  // replica 0 samples 4-5 and replica 1 samples 6-7, that is records 4, 0 and 1, 2.
  CHECK(first_sample(0, 2, 1, 2) == 2);
  CHECK(first_sample(1, 2, 0, 2) == 4);
  CHECK(first_sample(1, 2, 1, 2) == 6);
  CHECK(cifar10_images(data, first_sample(0, 2, 1, 2), 2).labels == std::vector<std::int64_t>{2, 3});
  CHECK(cifar10_images(data, first_sample(1, 2, 0, 2), 2).labels == std::vector<std::int64_t>{4, 0});
  const Images late = cifar10_images(data, first_sample(1, 2, 1, 2), 2);
  CHECK(late.labels == std::vector<std::int64_t>{1, 2});
  CHECK(pixel(late, 1, 0, 0, 0) == Approx((2 / 255.0 - 0.4914) / 0.2470));  // record 2's red
  // A pure function of the sample: sample 6 alone is the same image as within the batch.
  const Images alone = cifar10_images(data, 7, 1);
  CHECK(std::equal(alone.pixels.begin(), alone.pixels.end(), late.pixels.begin() + 3 * 32 * 32));
}

TEST_CASE("a CIFAR-10 directory is read as data_batch_1.bin to data_batch_5.bin, in order") {
  const TempDir tmp;
  for (int i = 1; i <= 5; ++i) write(tmp, "data_batch_" + std::to_string(i) + ".bin", record(i, 0) + record(i - 1, 0));
  write(tmp, "test_batch.bin", record(9, 0));  // held out
  const Cifar10 data = load_cifar10(tmp.path.string(), 10);
  REQUIRE(data.size() == 10);
  CHECK(cifar10_images(data, 0, 10).labels == std::vector<std::int64_t>{1, 0, 2, 1, 3, 2, 4, 3, 5, 4});
  std::filesystem::remove(tmp.path / "data_batch_4.bin");
  std::filesystem::create_directory(tmp.path / "data_batch_4.bin");
  CHECK_THROWS_WITH(load_cifar10(tmp.path.string(), 10), tmp.file("data_batch_4.bin") + ": cannot be read (not a regular file)");
  std::filesystem::remove(tmp.path / "data_batch_4.bin");
  CHECK_THROWS_WITH(load_cifar10(tmp.path.string(), 10),
                    tmp.file("data_batch_4.bin") + ": cannot be read (no such file); a CIFAR-10 directory holds "
                                                   "data_batch_1.bin to data_batch_5.bin (the binary version)");
}

TEST_CASE("a bad CIFAR-10 file is named with the record and what was expected") {
  const TempDir tmp;
  CHECK_THROWS_WITH(load_cifar10(tmp.file("none.bin"), 10), tmp.file("none.bin") + ": cannot be read (no such file or directory)");
  const auto odd = write(tmp, "odd.bin", record(1, 0) + "x");
  CHECK_THROWS_WITH(load_cifar10(odd, 10),
                    odd + ": 3074 bytes is not a whole number of 3,073-byte CIFAR-10 records (a label byte and 3,072 "
                          "pixel bytes): 1 byte left over after 1 record (the binary version, not the python one?)");
  const auto empty = write(tmp, "empty.bin", "");
  CHECK_THROWS_WITH(load_cifar10(empty, 10), empty + ": is empty; a CIFAR-10 batch holds 3,073-byte records");
  const auto label = write(tmp, "label.bin", record(1, 0) + record(12, 0) + record(200, 0));
  CHECK_THROWS_WITH(load_cifar10(label, 10), label + ": record 1 (byte offset 3073): label 12 is not a CIFAR-10 class (0 to 9)");
  // A model with fewer outputs than the data's classes cannot take their labels.
  const auto seven = write(tmp, "seven.bin", record(3, 0) + record(0, 0) + record(7, 0));
  CHECK(load_cifar10(seven, 8).size() == 3);
  CHECK_THROWS_WITH(load_cifar10(seven, 4), seven + ": record 2 (byte offset 6146): label 7, but the model has 4 classes (0 to 3)");
}
