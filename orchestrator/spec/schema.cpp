// spec::experiment_schema: the experiment format as a JSON Schema, one table row per top-level key.
//
// To add a key: write its schema as a function below (or reuse one) and add one row to kTopKeys; a key
// inside a section is one more member in that section's closed() list. schema/experiment.schema.json is then
// regenerated with `sweep schema > schema/experiment.schema.json` (the e2e test "sweep schema equals
// the committed file" fails until it is).
#include "spec/schema.h"

#include <array>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "sched/executors.h"
#include "sched/resources.h"
#include "spec/bundled.h"
#include "spec/escalation.h"
#include "spec/experiment.h"
#include "spec/metric_parsers.h"
#include "spec/metric_reductions.h"
#include "util/escape.h"
#include "util/failure_classes.h"

namespace sweep::spec {
namespace {

/// A schema fragment as compact JSON text.
using Json = std::string;
using Member = std::pair<std::string_view, Json>;

Json str(std::string_view s) { return json_string(s); }

Json obj(std::initializer_list<Member> members) {
  Json out = "{";
  for (const auto& [key, value] : members) {
    if (out.size() > 1) out += ',';
    out += json_string(key) + ":" + value;
  }
  return out + "}";
}

Json obj(const std::vector<Member>& members) {
  Json out = "{";
  for (const auto& [key, value] : members) {
    if (out.size() > 1) out += ',';
    out += json_string(key) + ":" + value;
  }
  return out + "}";
}

Json arr(const std::vector<Json>& items) {
  Json out = "[";
  for (const Json& item : items) out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}

template <class Names>
Json names(const Names& list) {
  std::vector<Json> items;
  for (std::string_view n : list) items.push_back(str(n));
  return arr(items);
}

Json described(std::string_view text, Json schema) {
  return Json("{\"description\":") + str(text) + "," + schema.substr(1);
}

/// A map whose keys are exactly `members` (the loader refuses any other key).
Json closed(const std::vector<Member>& members, std::initializer_list<std::string_view> required = {}) {
  std::vector<Member> out{{"type", str("object")}, {"properties", obj(members)}, {"additionalProperties", "false"}};
  if (required.size() > 0) out.emplace_back("required", names(required));
  return obj(out);
}

// What YAML writes as one plain value; the loader reads each as text where text is meant.
Json scalar() { return obj({{"type", names(std::array{"string", "number", "integer", "boolean"})}}); }
Json text() { return scalar(); }
/// A number the loader reads from a plain or a quoted scalar.
Json number() { return obj({{"type", names(std::array{"number", "string"})}}); }
Json string_list() { return obj({{"type", str("array")}, {"items", text()}}); }
Json whole(int minimum) {
  return obj({{"anyOf", arr({obj({{"type", str("integer")}, {"minimum", std::to_string(minimum)}}),
                             obj({{"type", str("string")}, {"pattern", str("^\\+?[0-9]+$")}})})}});
}
Json one_of_names(std::initializer_list<std::string_view> list) { return obj({{"enum", names(list)}}); }
Json map_of(Json values) { return obj({{"type", str("object")}, {"additionalProperties", values}}); }

/// Keys that become names of the expression language and the templates: identifiers that are neither
/// a keyword nor a run variable (spec/experiment.h).
Json parameter_names() {
  std::vector<std::string_view> reserved{"and", "or", "not", "true", "false"};
  reserved.insert(reserved.end(), kRunVariables.begin(), kRunVariables.end());
  return obj({{"pattern", str("^[A-Za-z_][A-Za-z0-9_]*$")}, {"not", obj({{"enum", names(reserved)}})}});
}

/// Text that must not be empty (a number or a boolean is text too).
Json nonempty_text() {
  return obj({{"anyOf", arr({obj({{"type", str("string")}, {"minLength", "1"}}),
                             obj({{"type", names(std::array{"number", "boolean"})}})})}});
}

/// A resource's value that must render to a positive integer: one, or a template.
Json count() {
  return obj({{"anyOf", arr({obj({{"type", str("integer")}, {"minimum", "1"}, {"maximum", "999999999"}}),
                             obj({{"type", str("string")}, {"pattern", str("^[1-9][0-9]{0,8}$|\\{\\{")}})})}});
}

Json matrix() {
  const Json choice = obj({{"anyOf", arr({scalar(), obj({{"type", str("object")}, {"minProperties", "1"},
                                                          {"propertyNames", parameter_names()},
                                                          {"additionalProperties", scalar()}})})}});
  const Json axis = obj({{"type", str("array")}, {"minItems", "1"}, {"items", choice}});
  return described("The parameter axes: each key a non-empty list of scalars, or of maps with the same fields",
                   obj({{"type", str("object")}, {"minProperties", "1"}, {"propertyNames", parameter_names()},
                        {"additionalProperties", axis}}));
}

Json repetitions() {
  // At most kMaxRepetitions (spec/experiment.h).
  const Json runs = obj({{"anyOf", arr({obj({{"type", str("integer")}, {"minimum", "1"}, {"maximum", "10000"}}),
                                        obj({{"type", str("string")}, {"pattern", str("^\\+?([1-9][0-9]{0,3}|10000)$")}})})}});
  const Json until = closed({{"metric", text()}, {"ci95_rel", number()}}, {"metric", "ci95_rel"});
  const Json adaptive = closed({{"min", runs}, {"max", runs}, {"until", until}});
  return described("Runs per point: an integer from 1 to 10000, or {min, max, until}", obj({{"anyOf", arr({runs, adaptive})}}));
}

/// `args` of `bundled: <name>`: the program's own long options (spec/bundled.h).
Json bundled_args_rules() {
  std::vector<Json> rules;
  for (const BundledProgram& p : bundled_programs()) {
    std::vector<std::string_view> options;
    std::vector<Member> flags;  // a flag takes a YAML boolean
    for (const BundledOption& o : p.options) {
      options.push_back(o.name);
      if (o.flag) flags.emplace_back(o.name, obj({{"type", str("boolean")}}));
    }
    const Json args = obj({{"propertyNames", obj({{"enum", names(options)}})}, {"properties", obj(flags)}});
    rules.push_back(obj({{"if", obj({{"properties", obj({{"bundled", obj({{"const", str(p.name)}})}})},
                                     {"required", names(std::array{"bundled"})}})},
                         {"then", obj({{"properties", obj({{"args", args}})}})}}));
  }
  return arr(rules);
}

Json workload_entry(bool in_list) {
  std::vector<std::string_view> programs;
  for (const BundledProgram& p : bundled_programs()) programs.push_back(p.name);
  std::vector<Member> keys{{"command", described("A Mustache template run in the job's shell", nonempty_text())},
                           {"bundled", obj({{"enum", names(programs)}})},
                           {"args", map_of(scalar())},
                           {"launcher", one_of_names({"local", "srun", "mpirun", "torchrun-env"})},
                           {"mpi", text()}};
  if (in_list) keys.emplace_back("when", text());
  Json entry = closed(keys);
  entry.pop_back();
  // `mpi` only with a launcher that passes it to srun.
  const Json mpi = obj({{"if", obj({{"required", names(std::array{"mpi"})}})},
                        {"then", obj({{"required", names(std::array{"launcher"})},
                                      {"properties", obj({{"launcher", one_of_names({"srun", "torchrun-env"})}})}})}});
  Json rules = bundled_args_rules();
  rules.insert(rules.size() - 1, "," + mpi);
  return entry + ",\"oneOf\":" + arr({obj({{"required", names(std::array{"command"})}}),
                                      obj({{"required", names(std::array{"bundled"})}})}) +
         ",\"allOf\":" + rules + "}";
}

Json workload() {
  return described("What each run executes: {command} or {bundled, args}, or a list of them with `when`",
                   obj({{"anyOf", arr({workload_entry(false),
                                       obj({{"type", str("array")}, {"minItems", "1"}, {"items", workload_entry(true)}})})}}));
}

Json resources() {
  std::vector<Member> keys;
  const Json time = obj({{"anyOf", arr({obj({{"type", str("integer")}, {"minimum", "1"}}), obj({{"type", str("string")}})})}});
  const Json options = obj({{"type", str("array")},
                            {"items", obj({{"type", str("string")}, {"pattern", str("^-|\\{\\{")}})}});
  for (const sched::ResourceKey& k : sched::kResourceKeys) {
    using Kind = sched::ResourceKey::Kind;
    keys.emplace_back(k.name, k.kind == Kind::list    ? options
                              : k.kind == Kind::count ? count()
                              : k.name == "time"      ? time
                                                      : scalar());
  }
  return described("Scheduler resources and the time limit (each value a template)", closed(keys));
}

Json metric_rule() {
  const Json rule = closed({{"name", obj({{"type", str("string")}, {"pattern", str("^[A-Za-z_][A-Za-z0-9_.]*$")}})},
                            {"unit", text()},
                            {"better", one_of_names({"higher", "lower"})},
                            {"regex", text()},
                            {"json", text()},
                            {"parser", obj({{"enum", names(kMetricParserNames)}})},
                            {"source", text()},
                            {"reduce", obj({{"enum", names(kMetricReductions)}})}});
  const Json exactly_one = arr({obj({{"required", names(std::array{"regex"})}}), obj({{"required", names(std::array{"json"})}}),
                                obj({{"required", names(std::array{"parser"})}})});
  const Json declared = obj({{"if", obj({{"required", names(std::array{"parser"})}})},
                             {"else", obj({{"required", names(std::array{"name", "better"})}})}});
  return rule.substr(0, rule.size() - 1) + ",\"oneOf\":" + exactly_one + ",\"allOf\":[" + declared + "]}";
}

Json metrics() {
  return described("What to extract from each run: {name, better, regex | json} or {parser}",
                   obj({{"type", str("array")}, {"items", metric_rule()}}));
}

Json success() {
  return closed({{"exit_code", whole(-2147483647)}, {"metrics", string_list()}, {"where", text()}});
}

Json retries() {
  std::vector<std::string_view> classes;
  for (const failure::FailureClass& c : failure::kFailureClasses) {
    classes.push_back(c.retry_key);
    classes.push_back(c.name);
  }
  return obj({{"type", str("object")}, {"propertyNames", obj({{"enum", names(classes)}})}, {"additionalProperties", whole(0)}});
}

Json escalate() {
  std::vector<Member> keys;
  const Json growth = closed({{"factor", number()}, {"max", scalar()}}, {"max"});
  for (const EscalatingResource& r : kEscalatingResources) keys.emplace_back(r.resource, growth);
  return closed(keys);
}

Json references() {
  return obj({{"type", str("array")},
              {"items", closed({{"system", text()}, {"metric", text()}, {"value", number()}, {"lower", number()},
                                {"upper", number()}, {"unit", text()}, {"where", text()}})}});
}

Json env() {
  const Json reference = closed({{"from_env", obj({{"type", str("string")}})}, {"from_file", text()}, {"value", scalar()},
                                 {"secret", obj({{"type", str("boolean")}})}});
  return described("Variables exported for the workload: a template, or {from_env | from_file | value, secret}",
                   obj({{"type", str("object")},
                        {"propertyNames", obj({{"pattern", str("^[A-Za-z_][A-Za-z0-9_]*$")}})},
                        {"additionalProperties", obj({{"anyOf", arr({scalar(), reference})}})}}));
}

Json network() {
  return closed({{"counters", obj({{"type", str("boolean")}})},
                 {"interfaces", obj({{"type", str("array")}, {"minItems", "1"}, {"items", text()}})}});
}

Json telemetry() {
  const Json interval = obj({{"type", str("integer")}, {"minimum", std::to_string(kTelemetryMinIntervalMs)},
                             {"maximum", std::to_string(kTelemetryMaxIntervalMs)}});
  const Json sources = obj({{"type", str("array")}, {"minItems", "1"}, {"uniqueItems", "true"},
                            {"items", obj({{"enum", names(kTelemetrySources)}})}});
  return described("The sampler beside each run (docs/telemetry.md): false turns it off; {interval_ms, sources}",
                   obj({{"anyOf", arr({obj({{"type", str("boolean")}}), closed({{"interval_ms", interval}, {"sources", sources}})})}}));
}

Json container() {
  const Json settings =
      closed({{"runtime", obj({{"enum", names(kContainerRuntimes)}})},
              {"image", nonempty_text()},
              {"mounts", obj({{"type", str("array")}, {"items", obj({{"type", str("string")}, {"pattern", str("^[^:]+(:[^:]+(:ro)?)?$")}})}})},
              {"gpus", obj({{"type", str("boolean")}})},
              {"env", obj({{"type", str("object")}, {"propertyNames", obj({{"pattern", str("^[A-Za-z_][A-Za-z0-9_]*$")}})},
                           {"additionalProperties", scalar()}})},
              {"args", string_list()}});
  return described("The image each run's workload runs in (docs/containers.md): none, or {runtime, image, mounts, gpus, env, args}",
                   obj({{"anyOf", arr({obj({{"const", str("none")}}), settings})}}));
}

Json report() {
  const Json list = obj({{"type", str("array")}, {"items", obj({{"type", str("object")}})}});
  return described("The campaign's report tables and figures (docs/reports.md)",
                   closed({{"model", obj({{"type", str("object")}})}, {"tables", list}, {"figures", list},
                           {"join", obj({{"type", names(std::array{"object", "array"})}})},
                           {"figure_style", text()}}));
}

Json safe_name() {
  return obj({{"anyOf", arr({obj({{"type", str("string")}, {"pattern", str("^[A-Za-z0-9_+][A-Za-z0-9._+-]{0,127}$")}}),
                             obj({{"type", names(std::array{"number", "boolean"})}})})}});
}

Json executor() { return obj({{"enum", names(sched::kExecutorNames)}}); }

/// One row per top-level key of the experiment (spec/load.cpp's kTopKeys, in its order).
struct TopKey {
  std::string_view name;
  bool required;
  Json (*schema)();
};

Json order() {
  const Json kinds = one_of_names({"interleaved", "grouped", "random"});
  return described("The order runs start in: interleaved (default), grouped, or random with a seed",
                   obj({{"anyOf", arr({kinds, closed({{"kind", kinds}, {"seed", whole(0)}}, {"kind"})})}}));
}

constexpr std::array<TopKey, 25> kTopKeys{{
    {"format", false, [] { return obj({{"enum", "[1,\"1\"]"}}); }},
    {"name", true, [] { return described("1-128 of A-Z a-z 0-9 . _ + -, not starting with . or -", safe_name()); }},
    {"description", false, text},
    {"matrix", true, matrix},
    {"repetitions", false, repetitions},
    {"workload", true, workload},
    {"workdir", false, [] { return described("Where setup and the workload run: experiment (default), launch, run, or a directory", text()); }},
    {"resources", false, resources},
    {"metrics", false, metrics},
    {"executor", false, executor},
    {"order", false, order},
    {"retries", false, retries},
    {"escalate", false, escalate},
    {"thresholds", false, [] { return map_of(obj({{"type", names(std::array{"number", "integer", "string"})}})); }},
    {"references", false, references},
    {"env", false, env},
    {"setup", false, [] { return obj({{"type", str("array")}, {"items", text()}}); }},
    {"network", false, network},
    {"telemetry", false, telemetry},
    {"container", false, container},
    {"report", false, report},
    {"zip", false, [] { return obj({{"type", str("array")}, {"items", obj({{"type", str("array")}, {"minItems", "2"}, {"uniqueItems", "true"}, {"items", text()}})}}); }},
    {"derived", false, [] { return obj({{"type", str("object")}, {"propertyNames", parameter_names()}, {"additionalProperties", scalar()}}); }},
    {"exclude", false, [] { return obj({{"type", str("array")}, {"items", obj({{"type", str("object")}, {"minProperties", "1"}})}}); }},
    {"success", false, success},
}};

/// The end of the list of scalars that opens at compact[open] ('['), or npos when it holds a map or a list.
std::size_t scalar_list_end(const Json& compact, std::size_t open) {
  bool in_string = false;
  for (std::size_t i = open + 1; i < compact.size(); ++i) {
    const char c = compact[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      return std::string::npos;
    } else if (c == ']') {
      return i;
    }
  }
  return std::string::npos;
}

/// Indents compact JSON two spaces per level, a list of scalars on one line; strings are copied as they are.
std::string pretty(const Json& compact) {
  std::string out;
  int depth = 0;
  bool in_string = false;
  std::size_t inline_end = std::string::npos;  // inside a list of scalars until this ']'
  auto newline = [&] { out += '\n' + std::string(2 * depth, ' '); };
  for (std::size_t i = 0; i < compact.size(); ++i) {
    const char c = compact[i];
    if (in_string) {
      out += c;
      if (c == '\\') out += compact[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (i == inline_end) inline_end = std::string::npos;
    else if (c == '}' || c == ']') --depth, newline();
    out += c;
    if (c == ':' || (c == ',' && inline_end != std::string::npos)) out += ' ';
    else if (c == ',') newline();
    else if (c == '[' && (inline_end = scalar_list_end(compact, i)) != std::string::npos) continue;
    else if (c == '{' || c == '[') ++depth, newline();
  }
  return out + "\n";
}

}  // namespace

std::string experiment_schema() {
  std::vector<Member> properties;
  std::vector<std::string_view> required;
  for (const TopKey& k : kTopKeys) {
    properties.emplace_back(k.name, k.schema());
    if (k.required) required.push_back(k.name);
  }
  return pretty(obj({{"$schema", str("http://json-schema.org/draft-07/schema#")},
                     {"title", str("sweep experiment (format 1)")},
                     {"description", str("An experiment of sweep (docs/experiment-format.md). sweep plan is the authority: "
                                         "this schema refuses only what it refuses too.")},
                     {"type", str("object")},
                     {"properties", obj(properties)},
                     {"required", names(required)},
                     {"additionalProperties", "false"}}));
}

}  // namespace sweep::spec
