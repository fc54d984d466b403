// The main of every test executable: Catch's own, after a check of the test cases' names.
//
// Catch 2.13's console reporter wraps a failed test's name with its continuation lines indented to just
// after the name's first ": ". When that indent reaches the console width (79) it loops forever,
// printing the same fragment: a failing test then fills ctest's memory until ctest itself aborts. So a
// name whose first ": " ends past kMaxIndent is refused before any test runs, naming the test.
//
// A name with ';' is refused too: catch_discover_tests hands names to ctest as a CMake list, which cuts
// the name at the ';'. ctest then asks Catch for a test of the first half, none matches, Catch runs
// nothing and exits 0, and the test "passes" without ever running. For the same reason every run is
// told `--warn NoTests`: a filter that matches no test is a failure, not a pass. A name that starts
// with '-' is refused as well: ctest passes it as Catch's first argument, which Catch then reads as an
// unknown option ("Unrecognised token"), a failure that does not say which name is at fault.
//
// A refusal must reach ctest. Test discovery lists the names (--list-test-names-only) and reads Catch's
// exit code as the number of tests, so a plain refusal there would register no test of the executable
// at all, silently. So discovery is answered with one name per refused test, "REFUSED test name at
// FILE:LINE"; ctest then runs it, this check refuses again, and the run fails with the reason.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr std::size_t kMaxIndent = 60;  // also in the message below

/// Why Catch or ctest cannot handle `name`, or nullptr.
const char* name_problem(const std::string& name) {
  const std::size_t colon = name.find(": ");
  if (colon != std::string::npos && colon + 2 > kMaxIndent)
    return "the test name's first \": \" ends past column 60, where Catch cannot print it";
  if (name.find(';') != std::string::npos) return "the test name has a ';', where ctest cuts it (the test would never run)";
  if (name.starts_with('-')) return "the test name starts with '-', which Catch reads as an option when ctest passes it";
  return nullptr;
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  std::vector<char*> args(argv, argv + argc);
  char warn[] = "--warn", no_tests[] = "NoTests";
  args.insert(args.begin() + 1, {warn, no_tests});
  if (const int code = session.applyCommandLine(static_cast<int>(args.size()), args.data()); code != 0) return code;
  const bool listing = session.configData().listTestNamesOnly;
  int bad = 0;
  for (const auto& test : Catch::getAllTestCasesSorted(session.config()))
    if (const char* problem = name_problem(test.name)) {
      std::fprintf(stderr, "%s:%zu: %s: \"%s\"\n", test.lineInfo.file, test.lineInfo.line, problem, test.name.c_str());
      if (listing) std::printf("REFUSED test name at %s:%zu\n", test.lineInfo.file, test.lineInfo.line);
      ++bad;
    }
  if (bad) return listing ? bad : 2;
  return session.run();
}
