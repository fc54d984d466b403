// libFuzzer target: importing a run directory into the database. The input becomes the run's stdout
// (first half) and stderr (second half) in a fresh directory; ingest extracts and judges it and the
// result is stored with Store::finish_attempt in a real SQLite file, then read back.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "parse/extract.h"
#include "runner/ingest.h"
#include "store/store.h"
#include "util/error.h"

namespace {

namespace fs = std::filesystem;

struct Fixture {
  fs::path dir;
  sweep::store::Store* db = nullptr;
  std::int64_t run = 0;
  sweep::parse::Extractor extractor{{sweep::parse::Rule{"t", "s", "lower", sweep::parse::Rule::Kind::regex,
                                                        R"(t=(?<value>\S+))", "stdout", {}, ""}}};
  Fixture() {
    char tmpl[] = "/tmp/sweep-fuzz-ingest-XXXXXX";
    dir = ::mkdtemp(tmpl);
    db = new sweep::store::Store((dir / "sweep.db").string());
    sweep::store::CampaignRecord c;
    c.label = "fuzz";
    c.experiment = "fuzz";
    c.executor = "local";
    c.repetitions = 1;
    const auto id = db->create_campaign(c, {{"p", 0, {{"x", "1", "int", false}}}});
    run = db->runs(id).front().id;
  }
};

Fixture& fixture() {
  static Fixture f;  // one database for the whole session: every input is one more attempt
  return f;
}

void write(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  Fixture& f = fixture();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const fs::path run_dir = f.dir / "run";
  fs::create_directories(run_dir);
  write(run_dir / "stdout", bytes.substr(0, size / 2));
  write(run_dir / "stderr", bytes.substr(size / 2));
  const sweep::exec::Outcome outcome{"fuzz", 0, 0, false, 0.1};
  sweep::spec::Success success;
  const sweep::store::AttemptResult result = sweep::runner::ingest(outcome, run_dir.string(), f.extractor, success, true, true);
  const int attempt = f.db->begin_attempt(f.run, run_dir.string(), "t");
  f.db->finish_attempt(f.run, attempt, result);
  (void)f.db->metrics(f.db->find_campaign("fuzz")->id);
  return 0;
}
