// The seed replayer: a main for the fuzz targets outside the "fuzz" preset. It calls the target's
// LLVMFuzzerTestOneInput once with the bytes of each file it is given (a directory: each regular file in
// it, in name order), so that the ordinary and the ASan+UBSan builds run every seed as ctest tests
// ("fuzz: <target> over its seed corpus") without clang's libFuzzer. A crash or a sanitizer report fails
// the test as it would fail `scripts/fuzz --seeds`; exit 2 when an argument cannot be read or names no file.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size);

namespace {

/// The files `arg` names: itself, or a directory's regular files sorted by name.
std::vector<std::filesystem::path> inputs_of(const std::filesystem::path& arg) {
  if (!std::filesystem::is_directory(arg)) return {arg};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(arg))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const auto& file : inputs_of(argv[i])) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
        return 2;
      }
      const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      std::printf("replay: %s (%zu bytes)\n", file.c_str(), bytes.size());
      std::fflush(stdout);
      LLVMFuzzerTestOneInput(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  if (replayed == 0) {
    std::fprintf(stderr, "replay: no input files given\n");
    return 2;
  }
  std::printf("replay: %zu inputs, none crashed\n", replayed);
  return 0;
}
