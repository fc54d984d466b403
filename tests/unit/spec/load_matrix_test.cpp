// spec::load_text: matrix, zip, exclude and derived.
#include <cmath>

#include "load_helpers.h"

using namespace sweep;
using namespace sweep::spec;
using spec_test::load;
using spec_test::load_error;

namespace {

const std::string kWorkload = "workload: {command: x}\n";

/// An experiment whose matrix block is `matrix_body` (starting at line 3, indented by the caller).
std::string with_matrix(const std::string& matrix_body, const std::string& rest = "") {
  return "name: t\nmatrix:\n" + matrix_body + kWorkload + rest;
}

std::vector<Value> values_of(const Axis& a) {
  std::vector<Value> out;
  for (const Choice& c : a.choices) out.push_back(c.params[0].value);
  return out;
}

}  // namespace

TEST_CASE("matrix: scalar values are typed") {
  const Experiment e =
      load(with_matrix("  a: [1, -2, +3, 08, 1.5, 1e3, -.5, true, False, \"true\", '1', abc, 1.2.3, 0x10, !!str 5]\n"));
  CHECK(values_of(e.matrix[0]) == std::vector<Value>{Value(1), Value(-2), Value(3), Value(8), Value(1.5), Value(1000.0),
                                                     Value(-0.5), Value(true), Value(false), Value("true"), Value("1"),
                                                     Value("abc"), Value("1.2.3"), Value("0x10"), Value("5")});
  const Experiment special = load(with_matrix("  a: [.inf, -.inf, .nan]\n"));
  CHECK(special.matrix[0].choices[0].params[0].value == Value(HUGE_VAL));
  CHECK(special.matrix[0].choices[1].params[0].value == Value(-HUGE_VAL));
  CHECK(std::isnan(special.matrix[0].choices[2].params[0].value.as_real()));
  CHECK(load(with_matrix("  a:\n    - |\n      text\n")).matrix[0].choices[0].params[0].value == Value("text\n"));
}

TEST_CASE("matrix: axes and choices keep their locations and order") {
  const Experiment e = load(with_matrix("  b: [1, 2]\n  a: [x]\n"));
  CHECK(e.matrix[0].key == "b");
  CHECK(e.matrix[0].where.str() == "x.yaml:3:3");
  CHECK(e.matrix[0].choices[1].where.str() == "x.yaml:3:10");
  CHECK(e.matrix[0].param_names == std::vector<std::string>{"b"});
  CHECK(e.matrix[1].key == "a");
}

TEST_CASE("matrix: map axes give one parameter per field") {
  const Experiment e = load(with_matrix("  topo:\n    - {nodes: 1, gpus: 2}\n    - {gpus: 1, nodes: 2}\n"));
  const Axis& a = e.matrix[0];
  CHECK(a.param_names == std::vector<std::string>{"nodes", "gpus"});
  CHECK(a.choices[1].params == std::vector<Param>{{"nodes", Value(2)}, {"gpus", Value(1)}});  // first choice's order
  CHECK(e.parameter_names() == std::vector<std::string>{"nodes", "gpus"});
}

TEST_CASE("matrix: shape errors") {
  CHECK(load_error("name: t\nmatrix: {}\n" + kWorkload) == "x.yaml:2:9: \"matrix\" must declare at least one axis");
  CHECK(load_error("name: t\nmatrix: [a]\n" + kWorkload) == "x.yaml:2:9: \"matrix\" must be a map, got a list");
  CHECK(load_error(with_matrix("  batch: []\n")) == "x.yaml:3:10: \"matrix.batch\" must have at least one value");
  CHECK(load_error(with_matrix("  batch: 16\n")) ==
        "x.yaml:3:10: \"matrix.batch\" must be a list of values, got \"16\" (write [value] for a single value)");
  CHECK(load_error(with_matrix("  batch:\n")) ==
        "x.yaml:3:3: \"matrix.batch\" must be a list of values, got nothing (null)");
  CHECK(load_error(with_matrix("  a: [[1, 2]]\n")) ==
        "x.yaml:3:7: \"matrix.a[0]\": nested lists are not allowed in a matrix axis");
  CHECK(load_error(with_matrix("  a: [1, ~]\n")) ==
        "x.yaml:3:10: \"matrix.a[1]\" must be a single value (number, string or bool), got nothing (null)");
  CHECK(load_error(with_matrix("  a: [!foo 1]\n")) == "x.yaml:3:7: \"matrix.a[0]\": unsupported YAML tag \"!foo\"");
  CHECK(load_error(with_matrix("  a: [99999999999999999999]\n")) ==
        "x.yaml:3:7: \"matrix.a[0]\": integer 99999999999999999999 is out of range (the limit is 2^63-1)");
  CHECK(load_error(with_matrix("  a: [1, 2, 1]\n")) ==
        "x.yaml:3:13: matrix \"a\" lists the same value twice (first at line 3)");
}

TEST_CASE("matrix: map axis errors") {
  CHECK(load_error(with_matrix("  t: [1, {n: 1}]\n")) ==
        "x.yaml:3:10: \"matrix.t[1]\" is a map but the first choice is a scalar; an axis holds only scalars or only "
        "maps");
  CHECK(load_error(with_matrix("  t: [{n: 1}, 2]\n")) ==
        "x.yaml:3:15: \"matrix.t[1]\" is a scalar but the first choice is a map; an axis holds only scalars or only "
        "maps");
  CHECK(load_error(with_matrix("  t:\n    - {nodes: 1, gpus: 2}\n    - {nodes: 2, gpu: 1}\n")) ==
        "x.yaml:5:7: \"matrix.t[1]\" has fields (nodes, gpu) but the first choice has (nodes, gpus); every choice of "
        "a map axis needs the same fields");
  CHECK(load_error(with_matrix("  t: [{n: [1]}]\n")) ==
        "x.yaml:3:11: \"matrix.t[0].n\" must be a single value (number, string or bool), got a list");
  CHECK(load_error(with_matrix("  t: [{}]\n")) == "x.yaml:3:7: \"matrix.t[0]\" must have at least one field");
  CHECK(load_error(with_matrix("  nodes: [1]\n  topo: [{nodes: 2}]\n")) ==
        "x.yaml:4:3: parameter \"nodes\" is defined twice: by matrix \"nodes\" (line 3) and by matrix \"topo\"");
}

TEST_CASE("matrix: names must be usable in expressions and templates") {
  CHECK(load_error(with_matrix("  gpus-per-node: [1]\n")) ==
        "x.yaml:3:3: matrix key \"gpus-per-node\" must be a name of letters, digits and _ that does not start with "
        "a digit");
  CHECK(load_error(with_matrix("  and: [1]\n")) ==
        "x.yaml:3:3: matrix key \"and\" is a keyword of the expression language; choose another name");
  CHECK(load_error(with_matrix("  attempt: [1]\n")) ==
        "x.yaml:3:3: matrix key \"attempt\" is reserved for a run variable; choose another name");
  CHECK(load_error(with_matrix("  t: [{run_dir: 1}]\n")) ==
        "x.yaml:3:8: parameter \"run_dir\" is reserved for a run variable; choose another name");
}

TEST_CASE("zip: pairs axes element-wise") {
  const Experiment e = load(with_matrix("  a: [1, 2]\n  b: [3, 4]\n  c: [5]\n", "zip:\n  - [a, b]\n"));
  REQUIRE(e.zip.size() == 1);
  CHECK(e.zip[0].keys == std::vector<std::string>{"a", "b"});
  CHECK(e.zip[0].where.str() == "x.yaml:8:5");
}

TEST_CASE("zip: errors") {
  const std::string m = "  model: [a, b, c]\n  batch: [1, 2]\n  c: [5, 6]\n";  // lines 3-5; workload 6; zip 7
  CHECK(load_error(with_matrix(m, "zip: [[model, batch]]\n")) ==
        "x.yaml:7:7: zip group [model, batch]: \"model\" has 3 values but \"batch\" has 2");
  CHECK(load_error(with_matrix(m, "zip: [[modle, batch]]\n")) ==
        "x.yaml:7:8: unknown matrix key \"modle\" in zip (did you mean \"model\"?)");
  CHECK(load_error(with_matrix(m, "zip: [[batch, c], [c, model]]\n")) ==
        "x.yaml:7:20: \"c\" is already in the zip group at line 7");
  CHECK(load_error(with_matrix(m, "zip: [[batch, batch]]\n")) ==
        "x.yaml:7:15: \"batch\" is listed twice in this zip group");
  CHECK(load_error(with_matrix(m, "zip: [[batch]]\n")) ==
        "x.yaml:7:7: \"zip[0]\" must list at least 2 matrix keys to pair");
  CHECK(load_error(with_matrix(m, "zip: [batch, c]\n")) ==
        "x.yaml:7:7: \"zip[0]\" must be a list of matrix keys, e.g. [model, batch], got \"batch\"");
  CHECK(load_error(with_matrix(m, "zip: {a: b}\n")) == "x.yaml:7:6: \"zip\" must be a list, got a map");
}

TEST_CASE("excluded points: partial matches and expressions") {
  const Experiment e = load(with_matrix("  par: [tp, pp]\n  nodes: [1, 2]\n",
                                        "exclude:\n  - {par: pp, nodes: 2}\n  - where: \"nodes * 2 > limit\"\n"
                                        "derived:\n  limit: 3\n"));
  REQUIRE(e.exclude.size() == 2);
  CHECK(e.exclude[0].match == std::vector<Param>{{"par", Value("pp")}, {"nodes", Value(2)}});
  CHECK(!e.exclude[0].where);
  CHECK(e.exclude[0].loc.str() == "x.yaml:7:5");
  CHECK(e.exclude[1].match.empty());
  CHECK(e.exclude[1].where->eval(std::vector<Value>{Value("tp"), Value(2), Value(3)}) == Value(true));
  CHECK(e.exclude[1].where->eval(std::vector<Value>{Value("tp"), Value(1), Value(3)}) == Value(false));
}

TEST_CASE("excluded points: errors") {
  const std::string m = "  par: [tp, pp]\n  nodes: [1, 2]\n";  // lines 3-4; workload 5; exclude 6; entry 7
  CHECK(load_error(with_matrix(m, "exclude:\n  - {parallelism: tp}\n")) ==
        "x.yaml:7:6: unknown parameter \"parallelism\" in exclude");
  CHECK(load_error(with_matrix(m, "exclude:\n  - {pr: tp}\n")) ==
        "x.yaml:7:6: unknown parameter \"pr\" in exclude (did you mean \"par\"?)");
  CHECK(load_error(with_matrix(m, "exclude:\n  - where: \"par == 'tp' and nodez > 1\"\n")) ==
        "x.yaml:7:29: unknown name \"nodez\" (did you mean \"nodes\"?)");
  CHECK(load_error(with_matrix(m, "exclude:\n  - where: nodes * \n")) ==
        "x.yaml:7:19: expected an operand after \"*\"");
  CHECK(load_error(with_matrix(m, "exclude:\n  - {where: \"nodes > 1\", par: tp}\n")) ==
        "x.yaml:7:5: \"exclude[0]\" is either {where: \"expression\"} or parameter values, not both");
  CHECK(load_error(with_matrix(m, "exclude:\n  - nodes\n")) ==
        "x.yaml:7:5: \"exclude[0]\" must be a map: {parameter: value, ...} or {where: \"expression\"}, got \"nodes\"");
  CHECK(load_error(with_matrix(m, "exclude:\n  - {}\n")) == "x.yaml:7:5: \"exclude[0]\" needs at least one parameter");
  CHECK(load_error(with_matrix(m, "exclude:\n  - {nodes: [1, 2]}\n")) ==
        "x.yaml:7:13: \"exclude[0].nodes\" must be a single value (number, string or bool), got a list");
  CHECK(load_error(with_matrix(m, "exclude:\n  - where: [a]\n")) ==
        "x.yaml:7:12: \"exclude[0].where\" must be an expression string, got a list");
}

TEST_CASE("derived: sorted topologically, file order among independent entries") {
  const Experiment e = load(with_matrix("  n: [2]\n", "derived:\n  c: b + a\n  a: n * 2\n  z: 7\n  b: a + 1\n"));
  std::vector<std::string> order;
  for (const Derived& d : e.derived) order.push_back(d.name);
  CHECK(order == std::vector<std::string>{"a", "z", "b", "c"});
  CHECK(e.parameter_names() == std::vector<std::string>{"n", "a", "z", "b", "c"});
  std::vector<Value> slots{Value(2), Value(), Value(), Value(), Value()};
  for (std::size_t i = 0; i < e.derived.size(); ++i) slots[1 + i] = e.derived[i].expr.eval(slots);
  CHECK(slots == std::vector<Value>{Value(2), Value(4), Value(7), Value(5), Value(9)});
  CHECK(e.derived[3].where.str() == "x.yaml:6:3");
}

TEST_CASE("derived: errors") {
  const std::string m = "  n: [2]\n";  // line 3; workload 4; derived 5; first entry 6
  CHECK(load_error(with_matrix(m, "derived:\n  a: b + 1\n  b: c * 2\n  c: a\n")) ==
        "x.yaml:6:3: derived values form a cycle: a -> b -> c -> a");
  CHECK(load_error(with_matrix(m, "derived:\n  x: n\n  a: a + 1\n")) ==
        "x.yaml:7:3: derived values form a cycle: a -> a");
  CHECK(load_error(with_matrix(m, "derived:\n  a: n + m\n")) ==
        "x.yaml:6:10: unknown name \"m\" (did you mean \"n\"?)");
  CHECK(load_error(with_matrix(m, "derived:\n  n: 3\n")) ==
        "x.yaml:6:3: derived value \"n\" has the same name as a matrix parameter");
  CHECK(load_error(with_matrix(m, "derived:\n  a: [1]\n")) ==
        "x.yaml:6:6: \"derived.a\" must be an expression (a string such as \"tp * pp\", or a number), got a list");
  CHECK(load_error(with_matrix(m, "derived:\n  a: \"\"\n")) ==
        "x.yaml:6:6: \"derived.a\" must be an expression (a string such as \"tp * pp\", or a number), got \"\"");
  CHECK(load_error(with_matrix(m, "derived:\n  not: 1\n")) ==
        "x.yaml:6:3: derived name \"not\" is a keyword of the expression language; choose another name");
  CHECK(load_error(with_matrix(m, "derived:\n  a: \"n +\"\n")) == "x.yaml:6:10: expected an operand after \"+\"");
  CHECK(load_error(with_matrix(m, "derived: [a]\n")) == "x.yaml:5:10: \"derived\" must be a map, got a list");
  // In a literal block the column counts from the block's indentation on the offending line.
  CHECK(load_error(with_matrix(m, "derived:\n  a: |\n    n +\n      2 * \n")) ==
        "x.yaml:8:10: expected an operand after \"*\"");
}
