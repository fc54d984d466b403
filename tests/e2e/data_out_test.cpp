// Data out: the database's views read by pandas (python3-pandas, a real reader nobody here wrote), and
// sweep export's long table in CSV and JSON lines.
#include <catch2/catch.hpp>

#include "e2e/harness.h"

using namespace e2e;

namespace {

// Two typed parameters (an int and a string), a derived float, and a parameter named like a column.
const char* kExperiment = R"YAML(name: out
telemetry: false
matrix:
  n: [1, 2]
  kind: [a, 'b,c']
  metric: [x]
  param_metric: [y]
derived:
  half: "n / 2"
repetitions: 2
workload:
  command: echo "t=$(( {{n}} * 10 + {{repetition}} ))"
metrics:
  - {name: t, unit: s, better: lower, regex: 't=([0-9]+)'}
)YAML";

}  // namespace

TEST_CASE("the values view gives pandas one row per metric value with the parameters as typed columns") {
  Sandbox box;
  box.write("out.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "out.yaml", "--label", "o"}).exit_code == 0);
  const auto py = shell("cd " + box.dir().string() + R"( && /usr/bin/python3 -c "
import sqlite3, pandas
db = sqlite3.connect('results/sweep.db')
df = pandas.read_sql('SELECT * FROM \"values:o\" ORDER BY point, repetition', db)
print(len(df), list(df.columns))
print(df['n'].dtype, df['half'].dtype, df['kind'].dtype, df['value'].dtype)
print(df.groupby('n')['value'].mean().to_dict())
print(df[df['kind'] == 'b,c']['param_metric'].unique().tolist())
p = pandas.read_sql('SELECT * FROM parameter_values WHERE name = \'half\' ORDER BY value', db)
print(p['value'].tolist())
print(bool((df['elapsed_s'] > 0).all()))
")");
  INFO(py.out << py.err);
  REQUIRE(py.exit_code == 0);
  CHECK_THAT(py.out, Catch::StartsWith("8 ['campaign', 'experiment', 'point_id', 'point', 'repetition', 'attempt', 'state', "
                                       "'metric', 'idx', 'value', 'unit', 'better', 'run_id', 'elapsed_s', 'n', 'kind', 'param_metric', "
                                       "'param_param_metric', 'half']\n"
                                       "int64 float64 object float64\n"
                                       "{1: 10.5, 2: 20.5}\n"
                                       "['x']\n"
                                       "[0.5, 0.5, 1.0, 1.0]\n"
                                       "True\n"));
}

TEST_CASE("sweep export streams the long table as CSV for pandas and as JSON lines") {
  Sandbox box;
  box.write("out.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "out.yaml", "--label", "o"}).exit_code == 0);
  const auto csv = box.sweep({"export", "o", "--output", "o.csv"});
  INFO(csv.err);
  REQUIRE(csv.exit_code == 0);
  CHECK_THAT(csv.err, Catch::Contains("wrote o.csv: 8 values"));
  const auto py = shell("cd " + box.dir().string() + R"( && /usr/bin/python3 -c "
import pandas
df = pandas.read_csv('o.csv')
print(list(df.columns))
print(len(df), sorted(df['kind'].unique().tolist()), df['value'].sum())
print(df['elapsed_s'].dtype, bool((df['elapsed_s'] > 0).all() and (df['elapsed_s'] < 60).all()))
")");
  INFO(py.out << py.err);
  // Parameters `metric` and `param_metric`: a column each (export format 3).
  CHECK(py.out == "['campaign', 'point_id', 'n', 'kind', 'param_metric', 'param_param_metric', 'half', 'repetition', 'attempt', 'state', "
                  "'elapsed_s', 'metric', 'idx', 'value', 'unit', 'better']\n8 ['a', 'b,c'] 124\nfloat64 True\n");
  const auto jsonl = box.sweep({"export", "o", "--format", "jsonl"});
  REQUIRE(jsonl.exit_code == 0);
  CHECK_THAT(jsonl.out, Catch::StartsWith("{\"v\": 3, \"campaign\": \"o\", \"point_id\": \""));
  CHECK_THAT(jsonl.out, Catch::Contains("\"state\": \"succeeded\", \"elapsed_s\": 0.") &&
                            Catch::Contains("\"metric\": \"t\", \"idx\": 0, \"value\": "));
  CHECK_THAT(jsonl.out, Catch::Contains("\"n\": 1, \"kind\": \"b,c\", \"param_metric\": \"x\", \"param_param_metric\": \"y\", "
                                        "\"half\": 0.5, \"repetition\": "));
  CHECK(std::count(jsonl.out.begin(), jsonl.out.end(), '\n') == 8);
  CHECK(box.sweep({"export", "nosuch"}).exit_code == 4);
}

TEST_CASE("ls, status and show speak versioned JSON that python's json module reads") {
  Sandbox box;
  box.write("out.yaml", kExperiment);
  REQUIRE(box.sweep({"run", "out.yaml", "--label", "o"}).exit_code == 0);
  for (const char* command : {"ls", "status", "show"}) {
    std::vector<std::string> args{command, "--format", "json"};
    if (std::string(command) != "ls") args.insert(args.begin() + 1, "o");
    const auto r = box.sweep(args);
    INFO(command << ": " << r.out << r.err);
    REQUIRE(r.exit_code == 0);
    box.write(std::string(command) + ".json", r.out);
  }
  const auto py = shell("cd " + box.dir().string() + R"( && /usr/bin/python3 -c "
import json
ls, status, show = (json.load(open(n + '.json')) for n in ('ls', 'status', 'show'))
print(ls['version'], ls['campaigns'][0]['label'], ls['campaigns'][0]['runs'])
print(status['version'], status['runs']['succeeded'], len(status['points']), status['points'][0]['params'])
print(show['version'], show['experiment'], show['failed_runs'], show['spec_sha256'] != '', show['run_matches'][7]['matches'])
")");
  INFO(py.out << py.err);
  CHECK(py.out == "6 o {'pending': 0, 'running': 0, 'succeeded': 8, 'failed': 0}\n"
                  "6 8 4 {'n': 1, 'kind': 'a', 'metric': 'x', 'param_metric': 'y', 'half': 0.5}\n"
                  "6 out [] True {'t': 1}\n");
}
