#include <catch2/catch.hpp>

#include "util/secrets.h"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "temp_dir.h"

using namespace sweep;

TEST_CASE("names that look like secrets, in any case") {
  for (const char* n : {"HF_TOKEN", "api_key", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "MYSQL_PASSWD",
                        "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "WANDB_AUTH", "githubToken"})
    CHECK(secret_name(n));
  for (const char* n : {"NCCL_IB_HCA", "OMP_NUM_THREADS", "UCX_TLS", "PATH", "TOKE"}) CHECK_FALSE(secret_name(n));
}

TEST_CASE("literal secret assignments in a shell line, with where their words are") {
  const std::string line = "export HF_TOKEN=abc123 PATH=/x; API_KEY='a b' cmd DB_PASSWORD=\"q\\\"z\"";
  const auto found = secret_assignments(line);
  REQUIRE(found.size() == 3);
  CHECK(found[0].name == "HF_TOKEN");
  CHECK(found[0].value == "abc123");
  CHECK(line.substr(found[0].begin, found[0].end - found[0].begin) == "abc123");
  CHECK(found[1].value == "a b");
  CHECK(line.substr(found[1].begin, found[1].end - found[1].begin) == "'a b'");
  CHECK(found[2].value == "q\"z");
  CHECK(replace_assignments(line, found, [](std::size_t i) { return "$S" + std::to_string(i); }) ==
        "export HF_TOKEN=$S0 PATH=/x; API_KEY=$S1 cmd DB_PASSWORD=$S2");
}

TEST_CASE("a literal given to an option of a secret-looking name, in its space form, is a secret too") {
  const std::string line = "huggingface-cli login --token abc123 --add-to-git-credential; tool --api-key 'a b' -v";
  const auto found = secret_assignments(line);
  REQUIRE(found.size() == 2);
  CHECK(found[0].name == "TOKEN");
  CHECK(found[0].value == "abc123");
  CHECK(found[1].name == "API_KEY");
  CHECK(found[1].value == "a b");
  CHECK(replace_assignments(line, found, [](std::size_t i) { return "$S" + std::to_string(i); }) ==
        "huggingface-cli login --token $S0 --add-to-git-credential; tool --api-key $S1 -v");
  // Not values: the next option, an expansion, an option of another name, a dash inside a word.
  CHECK(secret_assignments("cmd --token --verbose").empty());
  CHECK(secret_assignments("cmd --token \"$T\"").empty());
  CHECK(secret_assignments("cmd --threads 4 -n 2").empty());
  CHECK(secret_assignments("my-token value").empty());
  CHECK(secret_assignments("cmd --token").empty());
  // The = form is the assignment's, as before; a masked one is masked.
  CHECK(secret_assignments("cmd --token=abc123").size() == 1);
  CHECK(secret_assignments("cmd --token ***").at(0).masked);
}

TEST_CASE("an assignment that expands something, or was masked already, holds no literal") {
  CHECK(secret_assignments("export HF_TOKEN=$(cat ~/.tok)").empty());
  CHECK(secret_assignments("export HF_TOKEN=\"$MY_TOKEN\"").empty());
  CHECK(secret_assignments("export HF_TOKEN={{token}}").empty());
  const auto masked = secret_assignments("export HF_TOKEN=***");
  REQUIRE(masked.size() == 1);
  CHECK(masked[0].masked);
  CHECK(secret_assignments("export HF_TOKEN=").empty());
  CHECK(secret_assignments("echo HF_TOKEN='unclosed").empty());
  CHECK(secret_assignments("MYHF_TOKENS==x").size() == 1);  // the value is "=x"
}

TEST_CASE("the masker replaces every known value, the longest first, and ignores short ones") {
  Masker m;
  CHECK(m.empty());
  m.add("abcd");
  m.add("abcdefgh");
  m.add("xyz");  // too short to mask by value
  CHECK(m("a abcdefgh b abcd c abcdabcd xyz") == "a *** b *** c ****** xyz");
  CHECK(m("nothing here") == "nothing here");
}

TEST_CASE("a scalar of a YAML text is masked at its place, quoted") {
  const std::string yaml = "env:\n  HF_TOKEN: tok-1234\n  B: 'it''s'\n  C: \"a\\\"b\" # c\n";
  CHECK(mask_scalar_at(yaml, 2, 13, "tok-1234") == "env:\n  HF_TOKEN: \"***\"\n  B: 'it''s'\n  C: \"a\\\"b\" # c\n");
  CHECK(mask_scalar_at(yaml, 4, 6, "a\"b") == "env:\n  HF_TOKEN: tok-1234\n  B: 'it''s'\n  C: \"***\" # c\n");
  CHECK_FALSE(mask_scalar_at(yaml, 2, 13, "other"));
  CHECK_FALSE(mask_scalar_at(yaml, 9, 1, "x"));
}

TEST_CASE("a word of a YAML text is masked at or after a place") {
  const std::string yaml = "setup:\n  - export HF_TOKEN=abcdef\n  - echo abcdef\n";
  CHECK(mask_word_from(yaml, 2, 5, "abcdef") == "setup:\n  - export HF_TOKEN=***\n  - echo abcdef\n");
  CHECK(mask_word_from(yaml, 3, 5, "abcdef") == "setup:\n  - export HF_TOKEN=abcdef\n  - echo ***\n");
  CHECK_FALSE(mask_word_from(yaml, 2, 5, "zzz"));
}

TEST_CASE("the job scripts' sed script masks the values of exactly the names secret_name holds") {
  // Run through the real sed -E of this machine, as the job scripts run it.
  const std::vector<std::string> names{"NCCL_IB_HCA", "UCX_TLS", "HF_TOKEN", "wandb_api_key", "OMPI_MCA_secret_x",
                                       "NCCL_PASSWD", "MY_PASSPHRASE_2", "AWS_CREDENTIALS", "OAUTH_URL", "NCCL_DEBUG"};
  TempDir dir;
  {
    std::ofstream in(dir.file("env"));
    for (const auto& n : names) in << n << "=value=with=equals\n";
  }
  const std::string script = secret_line_sed_script();
  REQUIRE(script.find('\'') == std::string::npos);
  const std::string command = "sed -E '" + script + "' " + dir.file("env");
  FILE* out = ::popen(command.c_str(), "r");
  REQUIRE(out != nullptr);
  std::string text;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, out) != nullptr) text += buffer;
  REQUIRE(::pclose(out) == 0);
  std::string expected;
  for (const auto& n : names) expected += n + (secret_name(n) ? "=***\n" : "=value=with=equals\n");
  CHECK(text == expected);
}
