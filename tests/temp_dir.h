#pragma once
// A temporary directory removed with its contents at scope exit.
#include <cstdlib>
#include <filesystem>
#include <string>

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "sweep-test-XXXXXX").string();
    path = ::mkdtemp(templ.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};
