// The main of every test executable: Catch's own, after a check of the test cases' names.
//
// Catch 2.13's console reporter wraps a failed test's name with its continuation lines indented to just
// after the name's first ": ". When that indent reaches the console width (79) it loops forever,
// printing the same fragment: a failing test then fills ctest's memory until ctest itself aborts. So a
// name whose first ": " ends past kMaxIndent is refused before any test runs, naming the test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace {

constexpr std::size_t kMaxIndent = 60;

bool wraps_forever(const std::string& name) {
  const std::size_t colon = name.find(": ");
  return colon != std::string::npos && colon + 2 > kMaxIndent;
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int code = session.applyCommandLine(argc, argv); code != 0) return code;
  int bad = 0;
  for (const auto& test : Catch::getAllTestCasesSorted(session.config()))
    if (wraps_forever(test.name)) {
      std::fprintf(stderr, "%s:%zu: the test name's first \": \" ends past column %zu, where Catch cannot "
                           "print it: \"%s\"\n",
                   test.lineInfo.file, test.lineInfo.line, kMaxIndent, test.name.c_str());
      ++bad;
    }
  return bad ? 2 : session.run();
}
