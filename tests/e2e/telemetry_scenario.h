#pragma once
// A campaign whose runs have telemetry files in format 1 (docs/telemetry.md), for the report's timeline
// and energy lines (tests/e2e/report_telemetry_test.cpp; the browser in html_report_test.cpp). The files
// are written by the workload, not by the sampler, and the provenance `telemetry.files` that the job
// script's ingest records is written into the database by the test (the sampler and ingest are other
// parts of issue 36, tested on their own): what the report reads is the same. The experiment turns the
// sampler off (`telemetry: false`), so that ingest neither adds a file of its own nor records the key.
//
// Points n = 1 and 2, two repetitions each. Every run writes telemetry.nodeA: 61 samples, one a second,
// GPU power 100·n W (+0..40 W), RAPL package 40 W, 2 cores busy, RSS growing, then `end 60.5`. Point n = 2
// also writes telemetry.nodeB without `end` (cut short), a malformed telemetry.bad and a symlink
// telemetry.link to /etc/passwd, and its runs' provenance names them, with "../../etc/passwd".
#include <catch2/catch.hpp>

#include <SQLiteCpp/SQLiteCpp.h>

#include <filesystem>
#include <string>

#include "e2e/harness.h"

namespace telemetry_test {

inline const char* kExperiment = R"yaml(name: telem
telemetry: false
matrix:
  n: [1, 2]
repetitions: 2
workload:
  command: |
    node() {
      f="{{run_dir}}/telemetry.$1"
      printf 'sweep-telemetry format=1\nnode %s\ninterval_ms 1000\nepoch_s 1795000000\nsource proc ok\nsource rapl ok\n' "$1" > "$f"
      printf 'source nvml ok stand-in written by the test\ngpu_device 0 GPU-0 Test GPU\nrapl_zone 0 package package-0\n' >> "$f"
      for i in $(seq 0 60); do
        printf 'proc %d %d %d 2\nrapl %d 0 %d\n' $i $(( 2 * i )) $(( 500 + 10 * i )) $i $(( 40 * i )) >> "$f"
        printf 'gpu %d 0 %d %d 90 40 %d 1500 60 0x0\n' $i $(( 100 * {{n}} * i )) $(( 100 * {{n}} + 10 * (i % 5) )) $(( 1000 + 20 * i )) >> "$f"
      done
      [ "$2" = end ] && echo "end 60.5" >> "$f"
      true
    }
    node nodeA end
    if [ {{n}} = 2 ]; then
      node nodeB cut
      printf 'sweep-telemetry format=1\nnode bad\nproc 0 lots 1 1\n' > "{{run_dir}}/telemetry.bad"
      ln -s /etc/passwd "{{run_dir}}/telemetry.link"
    fi
    echo "energy_j=$(( 60 * (40 + 100 * {{n}}) ))"
    echo "steps=20"
    echo "epoch_time=$(( 12 / {{n}} + 1 ))"
metrics:
  - {name: energy_j, unit: J, better: lower, regex: 'energy_j=(?<value>[0-9.]+)'}
  - {name: steps, better: higher, regex: 'steps=(?<value>[0-9.]+)'}
  - {name: epoch_time, unit: s, better: lower, regex: 'epoch_time=(?<value>[0-9.]+)'}
report:
  model: {baseline: {n: 1}, time: epoch_time, link: ib-hdr, parameters: 100000000, dp: n, steps: 20}
)yaml";

inline const std::string kHostile = "telemetry.nodeA telemetry.nodeB ../../etc/passwd telemetry.link telemetry.bad";

/// Runs the campaign "telem" and records each succeeded run's `telemetry.files`, as ingest would.
inline void run_campaign(const e2e::Sandbox& box) {
  box.write("telem.yaml", kExperiment);
  const auto run = box.sweep({"run", "telem.yaml", "--label", "telem"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  SQLite::Database db(box.path("results/sweep.db"), SQLite::OPEN_READWRITE);
  SQLite::Statement runs(db, "SELECT id, attempt, run_dir FROM runs WHERE state = 'succeeded'");
  int recorded = 0;
  while (runs.executeStep()) {
    const std::string dir = runs.getColumn(2).getString();
    SQLite::Statement put(db, "INSERT INTO run_provenance (run_id, attempt, key, value) VALUES (?, ?, 'telemetry.files', ?)");
    put.bind(1, runs.getColumn(0).getInt64());
    put.bind(2, runs.getColumn(1).getInt());
    put.bind(3, std::filesystem::exists(dir + "/telemetry.bad") ? kHostile : std::string("telemetry.nodeA"));
    put.exec();
    ++recorded;
  }
  REQUIRE(recorded == 4);
}

/// Runs the campaign and `sweep report telem --no-figures`; returns the report's directory.
inline std::string reported(const e2e::Sandbox& box) {
  run_campaign(box);
  const auto report = box.sweep({"report", "telem", "--no-figures"});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  return box.path("reports/telem");
}

}  // namespace telemetry_test
