#pragma once
// What trainbench trains on: the value of --data, FORMAT:PATH. Pure: parsing only; the readers are in
// data.h (token files) and cifar10.h.
#include <stdexcept>
#include <string>
#include <string_view>

#include "trainbench/model_config.h"

namespace sweep::trainbench {

enum class DataFormat {
  synthetic,  // generated in the program (data.h); the default
  tokens,     // a text file of whitespace-separated token ids
  uint16,     // a binary file of little-endian uint16 token ids (nanoGPT's prepare.py train.bin)
  cifar10,    // CIFAR-10's binary version: a directory of data_batch_*.bin, or one batch file
};

struct DataSource {
  DataFormat format = DataFormat::synthetic;
  std::string path;  // empty for synthetic
  bool operator==(const DataSource&) const = default;
};

struct DataSourceError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Parses --data: "" or "synthetic" (the default), FORMAT:PATH with FORMAT one of tokens, uint16,
/// cifar10, or a bare PATH (a token file, as before formats existed). A prefix before the first ':'
/// made only of lower-case letters, digits and '-' must be a format name; any other text is a PATH
/// ("./a:b" names a file a:b). Throws DataSourceError naming the valid formats.
DataSource parse_data_source(std::string_view text);

/// The format's name as --data takes it.
std::string_view name_of(DataFormat format);

/// The model family a format feeds: tokens and uint16 GPT, cifar10 ResNet; synthetic feeds both.
bool feeds(DataFormat format, Family family);

/// "synthetic", or "FORMAT:PATH": the --data value that gives this source.
std::string describe(const DataSource& source);

}  // namespace sweep::trainbench
