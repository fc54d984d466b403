// spec::load_*: the whole file, top-level keys, byte/YAML-level checks and --set overrides.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::kHead;
using spec_test::load;
using spec_test::load_error;

namespace {

const std::string kFull = std::string(SWEEP_SOURCE_DIR) + "/tests/data/experiments/full.yaml";

std::vector<std::string> values_of(const Axis& a, std::size_t param = 0) {
  std::vector<std::string> out;
  for (const Choice& c : a.choices) out.push_back(c.params[param].value.text());
  return out;
}

}  // namespace

TEST_CASE("load: the full example experiment") {
  const Experiment e = load_file(kFull);
  CHECK(e.path == kFull);
  CHECK(e.name == "full-demo");
  CHECK(e.description == "All-reduce sweep over sizes and layouts");
  REQUIRE(e.matrix.size() == 6);
  CHECK(e.matrix[0].key == "model");
  CHECK(e.matrix[0].where.str() == kFull + ":6:3");
  CHECK(values_of(e.matrix[0]) == std::vector<std::string>{"gpt2-small", "gpt2-medium", "125"});
  CHECK(e.matrix[0].choices[2].params[0].value == Value("125"));  // quoted: stays a string
  CHECK(e.matrix[1].choices[0].params[0].value == Value(8));
  CHECK(e.matrix[2].param_names == std::vector<std::string>{"nodes", "gpus_per_node"});
  CHECK(e.matrix[2].choices[1].params[0].value == Value(2));
  CHECK(e.matrix[2].choices[1].where.str() == kFull + ":10:7");
  CHECK(e.matrix[4].choices[0].params[0].value == Value(0.001));
  CHECK(e.matrix[4].choices[1].params[0].value == Value(1e-4));
  CHECK(e.matrix[5].choices[0].params[0].value == Value(true));
  REQUIRE(e.zip.size() == 1);
  CHECK(e.zip[0].keys == std::vector<std::string>{"model", "batch"});
  REQUIRE(e.exclude.size() == 2);
  CHECK(e.exclude[0].match == std::vector<Param>{{"parallelism", Value("pp")}, {"nodes", Value(1)}});
  CHECK(e.exclude[1].where->text() == "tp * pp > gpus");
  CHECK(e.exclude[1].where->where().str() == kFull + ":18:13");
  REQUIRE(e.derived.size() == 4);  // sorted: gpus before tp and pp, which use it
  CHECK(e.derived[0].name == "gpus");
  CHECK(e.derived[1].name == "tp");
  CHECK(e.derived[2].name == "pp");
  CHECK(e.derived[3].name == "tokens");
  CHECK(e.derived[1].expr.where().str() == kFull + ":20:8");  // past the opening quote
  CHECK(e.repetitions == 3);
  CHECK(e.workloads[0].command == "python train.py --model {{model}} --batch {{batch}}\n");
  CHECK(e.workloads[0].command_where.str() == kFull + ":27:5");  // first content line of the block
  CHECK(e.workloads[0].launcher == "local");
  CHECK(e.resources == std::vector<Resource>{
                           {"partition", "gpu", {}}, {"time", "1-02:30:00", {}}, {"cpus-per-task", "8", {}}});
  CHECK(e.timeout_s == Approx(86400 + 2 * 3600 + 30 * 60));
  REQUIRE(e.metrics.size() == 2);
  CHECK(e.metrics[0].kind == MetricRule::Kind::regex);
  CHECK(e.metrics[0].pattern == "step time: (?<value>[0-9.]+)");
  CHECK(e.metrics[0].source == "stdout");
  CHECK(e.metrics[1].kind == MetricRule::Kind::json);
  CHECK(e.metrics[1].unit == "samples/s");
  CHECK(e.metrics[1].better == "higher");
  CHECK(e.metrics[1].source == "out/metrics.jsonl");
  CHECK(e.success.metrics == std::vector<std::string>{"throughput"});
  CHECK(e.executor == "local");
}

TEST_CASE("load: parameter_names lists parameters, then derived values in order") {
  const Experiment e = load_file(kFull);
  CHECK(e.parameter_names() == std::vector<std::string>{"model", "batch", "nodes", "gpus_per_node", "parallelism", "lr",
                                                        "fused", "gpus", "tp", "pp", "tokens"});
}

TEST_CASE("load: derived and exclude expressions evaluate over one slot vector") {
  const Experiment e = load_file(kFull);
  // model, batch, nodes, gpus_per_node, parallelism, lr, fused, then gpus, tp, pp, tokens.
  std::vector<Value> slots{Value("gpt2-small"), Value(8), Value(2), Value(1), Value("tp"), Value(0.001),
                           Value(true),         Value(),  Value(),  Value(),  Value()};
  for (std::size_t i = 0; i < e.derived.size(); ++i) slots[7 + i] = e.derived[i].expr.eval(slots);
  CHECK(slots[7] == Value(2));
  CHECK(slots[8] == Value(2));
  CHECK(slots[9] == Value(1));
  CHECK(slots[10] == Value(4096));
  CHECK(e.exclude[1].where->eval(slots) == Value(false));
}

TEST_CASE("load: defaults of optional keys") {
  const Experiment e = load(kHead);
  CHECK(e.repetitions == 1);
  CHECK(e.executor == "local");
  CHECK(e.workloads[0].launcher == "local");
  CHECK(e.success.exit_code == 0);
  CHECK(e.success.metrics.empty());
  CHECK(!e.timeout_s);
  CHECK(e.text == kHead);
  CHECK(e.workloads[0].command_where.str() == "x.yaml:5:12");
}

TEST_CASE("load: load_file reads a real file") {
  const std::string path =
      std::filesystem::temp_directory_path() / ("sweep-spec-" + std::to_string(getpid()) + ".yaml");
  std::ofstream(path) << kHead << "repetitions: 2\n";
  const Experiment e = load_file(path);
  std::filesystem::remove(path);
  CHECK(e.repetitions == 2);
  CHECK(e.path == path);
}

TEST_CASE("load: a missing file is not_found and names the path") {
  try {
    load_file("/nonexistent/dir/exp.yaml");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(std::string(e.what()) == "experiment file \"/nonexistent/dir/exp.yaml\" does not exist");
  }
  CHECK_THROWS_MATCHES(load_file("/tmp"), Error,
                       Catch::Predicate<Error>([](const Error& e) { return e.kind() == ErrorKind::io; }));
}

TEST_CASE("load: top-level shape") {
  CHECK(load_error("") ==
        "x.yaml:1:1: the experiment is empty; it needs at least \"name\", \"matrix\" and \"workload\"");
  CHECK(load_error("# nothing\n") ==
        "x.yaml:1:1: the experiment is empty; it needs at least \"name\", \"matrix\" and \"workload\"");
  CHECK(load_error("- a\n- b\n") ==
        "x.yaml:1:1: the top level must be a map of keys (name, matrix, workload, ...), got a list");
  CHECK(load_error(kHead + "---\nname: u\n") ==  // at the second document's "---"
        "x.yaml:6:1: the file holds more than one YAML document; an experiment is one document");
  // yaml-cpp 0.7's LoadAll never returns on these (found by tests/fuzz/fuzz_load): a syntax error here.
  CHECK(load_error(",") == "x.yaml:1:1: the YAML cannot be parsed from here: ',' cannot start a value or a key");
  CHECK(load_error(",uOl#nU") == "x.yaml:1:1: the YAML cannot be parsed from here: ',' cannot start a value or a key");
  // An alias inside the node it names is a cycle (found by tests/fuzz/fuzz_expand: a stack overflow).
  CHECK(load_error("name: x\nmatrix:\n  a: &a\n    b: *a\n") ==
        "x.yaml:3:6: the document nests more than 200 levels deep (an alias inside the node it names?)");
  CHECK(load_error("matrix:\n  a: [1]\nworkload: {command: x}\n") == "x.yaml:1:1: missing required key \"name\"");
  CHECK(load_error("name: t\nworkload: {command: x}\n") == "x.yaml:1:1: missing required key \"matrix\"");
  CHECK(load_error("name: t\nmatrix: {a: [1]}\n") == "x.yaml:1:1: missing required key \"workload\"");
}

TEST_CASE("load: unknown keys suggest the closest valid key") {
  CHECK(load_error(kHead + "repetitons: 3\n") ==
        "x.yaml:6:1: unknown key \"repetitons\" (did you mean \"repetitions\"?)");
  CHECK(load_error(kHead + "zzzzzz: 1\n") ==
        "x.yaml:6:1: unknown key \"zzzzzz\" (valid keys: format, name, description, matrix, repetitions, workload, "
        "resources, metrics, executor, workdir, order, retries, escalate, thresholds, references, env, setup, network, telemetry, container, report, zip, derived, "
        "exclude, success)");
}

TEST_CASE("load: duplicate keys at any level name the first definition") {
  CHECK(load_error(kHead + "matrix:\n  b: [1]\n") == "x.yaml:6:1: duplicate key \"matrix\" (first defined at line 2)");
  CHECK(load_error("name: t\nmatrix:\n  a: [1]\n  a: [2]\nworkload: {command: x}\n") ==
        "x.yaml:4:3: duplicate key \"a\" (first defined at line 3)");
  CHECK(load_error(kHead + "report: {x: 1, x: 2}\n") == "x.yaml:6:16: duplicate key \"x\" (first defined at line 6)");
}

TEST_CASE("load: YAML syntax errors keep the parser's position and message") {
  CHECK(load_error("name: t\nmatrix: [1,\n") == "x.yaml:3:1: end of sequence flow not found");
  CHECK(load_error("name: a: b\n") == "x.yaml:1:8: illegal map value");
  CHECK(load_error(std::string(3000, '[') + std::string(3000, ']')).find("the YAML is nested too deeply") !=
        std::string::npos);
  CHECK(load_error(kHead + "? [a]\n: 1\n") == "x.yaml:6:3: map keys must be names, got a list");
}

TEST_CASE("load: bytes that are not UTF-8 text") {
  CHECK(load_error("name: t\nmatrix:\n  a: [\xff]\n") ==
        "x.yaml:3:7: invalid UTF-8 (byte 0xFF); experiment files must be UTF-8 text");
  CHECK(load_error("name: t\n  \xc3\xa9\xc3(\n") ==
        "x.yaml:2:5: invalid UTF-8 (byte 0xC3); experiment files must be UTF-8 text");
  CHECK(load_error(std::string("name: t\nx: a\0b\n", 14)) ==
        "x.yaml:2:5: the file contains a NUL byte; is it a text file?");
  CHECK(load_error(std::string(16 * 1024 * 1024 + 1, '#')) ==
        "x.yaml: the file is 16777217 bytes; experiment files are limited to 16 MiB");
}

TEST_CASE("load: format, name and description") {
  CHECK(load(kHead + "format: 1\n").name == "t");
  CHECK(load_error(kHead + "format: 2\n") == "x.yaml:6:9: unsupported \"format\" \"2\" (this build reads format 1)");
  CHECK(load_error("name: my exp\nmatrix: {a: [1]}\nworkload: {command: x}\n") ==
        "x.yaml:1:7: name \"my exp\" may only contain letters, digits and . _ + - (found ' ')");
  CHECK(load_error("name: .hidden\nmatrix: {a: [1]}\nworkload: {command: x}\n") ==
        "x.yaml:1:7: name \".hidden\" must not start with '.' or '-'");
  CHECK(load_error("name: [a]\nmatrix: {a: [1]}\nworkload: {command: x}\n") ==
        "x.yaml:1:7: \"name\" must be a name, got a list");
  CHECK(load_error(kHead + "description: {a: 1}\n") == "x.yaml:6:14: \"description\" must be a string, got a map");
}

TEST_CASE("load: repetitions") {
  CHECK(load(kHead + "repetitions: 5\n").repetitions == 5);
  CHECK(load_error(kHead + "repetitions: abc\n") ==
        "x.yaml:6:14: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"abc\"");
  CHECK(load_error(kHead + "repetitions: 0\n") == "x.yaml:6:14: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"0\"");
  CHECK(load_error(kHead + "repetitions: 2.5\n") ==
        "x.yaml:6:14: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"2.5\"");
  CHECK(load_error(kHead + "repetitions: \"3\"\n") ==
        "x.yaml:6:14: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"3\"");
  CHECK(load_error(kHead + "repetitions:\n") ==
        "x.yaml:6:1: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got nothing (null)");
}

TEST_CASE("load: the report section is validated with the experiment") {
  CHECK(load(kHead + "report:\n  tables: [{name: a, rows: [batch]}]\n").name == "t");
  CHECK(load_error(kHead + "report:\n  tables: [a]\n") == "x.yaml:7:12: \"report.tables[0]\" must be a map, got \"a\"");
}

TEST_CASE("load: --set replaces a matrix key by one typed value") {
  const Experiment e = load(kHead, {{"batch", "64"}});
  REQUIRE(e.matrix[0].choices.size() == 1);
  CHECK(e.matrix[0].choices[0].params[0].value == Value(64));
  CHECK(e.matrix[0].choices[0].where.str() == "--set batch=64");
  CHECK(load(kHead, {{"batch", "'64'"}}).matrix[0].choices[0].params[0].value == Value("64"));
  CHECK(load(kHead, {{"batch", "fast"}}).matrix[0].choices[0].params[0].value == Value("fast"));
  CHECK(load_error(kHead, {{"batch", "{a: 1}"}}) ==
        "--set batch={a: 1}: \"batch\" must be a single value (number, string or bool), got a map");
}

TEST_CASE("load: a --set list of 20,000 values is read whole, and a long value is cut where messages name it") {
  std::string list = "[";
  for (int i = 0; i < 20000; ++i) list += (i ? ", " : "") + std::to_string(i);
  list += "]";  // 128 KB: each item's place used to copy the whole text (quadratic, 2 GiB at 120 KB)
  const Experiment e = load(kHead, {{"batch", list}});
  REQUIRE(e.matrix[0].choices.size() == 20000);
  CHECK(e.matrix[0].choices[19999].params[0].value == Value(19999));
  CHECK(e.matrix[0].choices[0].where.str().rfind("--set batch=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 1...", 0) == 0);
  CHECK(load_error(kHead, {{"name", std::string(70, 'n') + "/"}}) ==
        "--set name=" + std::string(60, 'n') + "...: name \"" + std::string(70, 'n') +
            "/\" may only contain letters, digits and . _ + - (found '/')");
}

TEST_CASE("load: --set replaces top-level scalars, validated like the file") {
  const Experiment e =
      load(kHead,
           {{"repetitions", "4"}, {"executor", "local"}, {"name", "other"}, {"description", "from the command line"}});
  CHECK(e.repetitions == 4);
  CHECK(e.name == "other");
  CHECK(e.description == "from the command line");
  CHECK(load_error(kHead, {{"repetitions", "abc"}}) ==
        "--set repetitions=abc: \"repetitions\" must be an integer from 1 to 10000, or {min, max, until}, got \"abc\"");
  CHECK(load_error(kHead, {{"executor", "pbs"}}) ==
        "--set executor=pbs: unknown executor \"pbs\" (available: local, slurm)");
  CHECK(load_error(kHead, {{"name", "a/b"}}) ==
        "--set name=a/b: name \"a/b\" may only contain letters, digits and . _ + - (found '/')");
}

TEST_CASE("load: --set rejects unknown keys and map axes") {
  CHECK(load_error(kHead, {{"", "1"}}) == "--set =1: --set needs key=value with a non-empty key");
  CHECK(load_error(kHead, {{"batch", "{x: 1"}}) ==
        "--set batch={x: 1: cannot read the value: end of map flow not found");
  CHECK(load_error(kHead, {{"bach", "1"}}) == "--set bach=1: unknown key \"bach\" for --set (did you mean \"batch\"?)");
  CHECK(load_error(kHead, {{"zzzzzz", "1"}}) ==
        "--set zzzzzz=1: unknown key \"zzzzzz\" for --set (expected a matrix key or one of: name, description, "
        "repetitions, executor, workdir, order, telemetry)");
  const std::string map_axis = "name: t\nmatrix:\n  topo: [{nodes: 1, gpus: 2}]\nworkload: {command: x}\n";
  CHECK(load_error(map_axis, {{"topo", "1"}}) ==
        "--set topo=1: cannot --set map axis \"topo\" (its choices are maps); edit the experiment file instead");
  CHECK(load_error(map_axis, {{"nodes", "1"}}) ==
        "--set nodes=1: cannot --set \"nodes\": it is a field of map axis \"topo\", and a map axis cannot be --set");
}

TEST_CASE("load: --set on one key of a zip group breaks the pairing") {
  const std::string zipped = "name: t\nmatrix:\n  a: [1, 2]\n  b: [3, 4]\nzip: [[a, b]]\nworkload: {command: x}\n";
  CHECK(load_error(zipped, {{"a", "1"}}) ==
        "x.yaml:5:7: zip group [a, b]: \"a\" has 1 value but \"b\" has 2 (\"a\" was replaced by --set; --set every "
        "key of a zip group or none)");
  CHECK(load(zipped, {{"a", "1"}, {"b", "5"}}).matrix[1].choices.size() == 1);
}

TEST_CASE("load: --set gives a scalar axis a list of choices") {
  const std::string text = "name: t\nmatrix:\n  backend: [nccl, gloo, mpi]\nworkload: {command: x}\n";
  const Experiment e = load(text, {{"backend", "[mpi, gloo]"}});
  REQUIRE(e.matrix[0].choices.size() == 2);
  CHECK(e.matrix[0].choices[0].params[0].value == Value("mpi"));
  CHECK(e.matrix[0].choices[1].params[0].value == Value("gloo"));
  CHECK(load_error(text, {{"backend", "[mpi, mpi]"}}) ==
        "--set backend=[mpi, mpi]: matrix \"backend\" lists the same value twice");
  CHECK(load_error(text, {{"backend", "[]"}}) == "--set backend=[]: \"backend\" must have at least one value");
  CHECK_THAT(load_error(text, {{"backend", "[[a]]"}}), Catch::Contains("a scalar value"));
}

TEST_CASE("load: --set applies before dependents are checked") {
  const std::string text = kHead + "derived:\n  double: batch * 2\n";
  const Experiment e = load(text, {{"batch", "8"}});
  CHECK(e.derived[0].expr.eval(std::vector<Value>{Value(8), Value()}) == Value(16));
}
