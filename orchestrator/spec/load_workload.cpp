// Readers of `workload`, `resources` (with the Slurm time limit) and `executor`, and the tables of
// known launchers, executors and bundled programs.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cctype>
#include <cmath>

#include "spec/bundled.h"
#include "spec/load_sections.h"
#include "spec/time_limit.h"
#include "sched/executors.h"
#include "sched/resources.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

// Adding a launcher, executor or bundled program is one entry here (plus its implementation elsewhere).
constexpr std::array<std::string_view, 4> kLaunchers{"local", "srun", "mpirun", "torchrun-env"};
constexpr std::array<std::string_view, 5> kWorkloadKeys{"command", "bundled", "args", "launcher", "mpi"};
constexpr std::array<std::string_view, 6> kListWorkloadKeys{"command", "bundled", "args", "launcher", "mpi", "when"};

void read_command(const Field& f, const Source& src, Workload& w) {
  w.command = scalar_text(f, src, "a command string");
  if (trim(w.command).empty()) fail_at(location(f, src), fmt::format("\"{}\" must not be empty", f.path));
  w.command_where = content_location(f, src);
}

const BundledProgram& bundled_program(const Field& f, const Source& src) {
  const std::string name = scalar_text(f, src, "the name of a bundled program");
  if (const BundledProgram* p = find_bundled(name)) return *p;
  std::vector<std::string> names;
  for (const BundledProgram& p : bundled_programs()) names.emplace_back(p.name);
  fail_at(location(f, src), fmt::format("unknown bundled program \"{}\" (available: {}){}", name, join(names, ", "),
                                        did_you_mean(name, names)));
}

BundledArg bundled_arg(const Field& f, const Source& src, const BundledProgram& program) {
  const std::string name = key_name(f);
  const auto option = std::find_if(program.options.begin(), program.options.end(),
                                   [&](const BundledOption& o) { return o.name == name; });
  if (option == program.options.end()) {
    std::vector<std::string> names;
    for (const BundledOption& o : program.options) names.emplace_back(o.name);
    fail_at(location(f.key, src), fmt::format("{} has no option \"{}\" (options: {}){}", program.name, name,
                                              join(names, ", "), did_you_mean(name, names)));
  }
  BundledArg arg{name, "", std::nullopt};
  const Value v = scalar_value(f, src);
  if (option->flag) {
    if (v.type() != ValueType::boolean) fail_expected(f, src, "true or false (a flag)");
    arg.flag = v.as_bool();
    return arg;
  }
  arg.value = scalar_text(f, src, "a single value (string or number)");
  if (arg.value.find_first_of("\r\n") != std::string::npos)
    fail_at(location(f, src), fmt::format("\"{}\" must be on one line", f.path));
  return arg;
}

// `bundled: collbench` with `args: {op: allreduce, ...}` becomes program + an argument template.
void read_bundled(const Field& f, const Field* args, const Source& src, Workload& w) {
  const BundledProgram& program = bundled_program(f, src);
  w.program = std::string(program.name);
  std::vector<BundledArg> parsed;
  if (args)
    for (const Field& a : map_fields(*args, src)) parsed.push_back(bundled_arg(a, src, program));
  w.command = render_bundled_args(parsed);
  w.args = std::move(parsed);
  w.command_where = args ? location(*args, src) : location(f, src);
}

/// resources.time as seconds; nullopt for UNLIMITED. Throws at the field for what
/// spec::parse_time_limit refuses.
std::optional<double> time_limit(const Field& f, const Source& src) {
  const std::string text = scalar_text(f, src, fmt::format("a time limit ({})", kTimeFormats));
  const TimeLimit limit = parse_time_limit(text);
  if (!limit.ok()) fail_at(location(f, src), time_limit_error(f.path, limit));
  return limit.seconds;
}

}  // namespace

void check_in_table(const Field& f, const Source& src, std::span<const std::string_view> table, std::string_view what) {
  const bool vowel = !what.empty() && std::string_view("aeiou").find(what[0]) != std::string_view::npos;
  const std::string name = scalar_text(f, src, fmt::format("the name of {} {}", vowel ? "an" : "a", what));
  if (std::find(table.begin(), table.end(), name) != table.end()) return;
  const std::vector<std::string> names(table.begin(), table.end());
  fail_at(location(f, src),
          fmt::format("unknown {} \"{}\" (available: {}){}", what, name, join(names, ", "), did_you_mean(name, names)));
}

std::string read_launcher(const Field& f, const Source& src) {
  check_in_table(f, src, kLaunchers, "launcher");
  return f.value.Scalar();
}

std::string read_mpi(const Field& f, const Source& src) {
  std::string mpi = scalar_text(f, src, "an srun MPI plugin name such as pmix");
  if (mpi.empty() ||
      !std::all_of(mpi.begin(), mpi.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    fail_expected(f, src, "an srun MPI plugin name such as pmix");
  return mpi;
}

namespace {

/// `when: "expression"` of a list entry, bound to the parameters and derived values (workload is read
/// after `derived`).
void read_when(const Field& f, const Source& src, const LoadState& st, Workload& w) {
  const std::string text = scalar_text(f, src, "an expression string such as \"bench == 'collbench'\"");
  w.when = Expr::parse(text, content_location(f, src));
  w.when->bind(st.exp.parameter_names());
}

/// One workload map: the whole `workload:` value, or one entry of a `workload:` list (which also takes
/// `when`).
Workload read_one_workload(const Field& f, const Source& src, const LoadState& st, bool in_list) {
  Workload w;
  w.where = location(f, src);
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, in_list ? std::span<const std::string_view>(kListWorkloadKeys) : std::span<const std::string_view>(kWorkloadKeys), src);
  const Field* command = find_field(fields, "command");
  const Field* bundled = find_field(fields, "bundled");
  const Field* args = find_field(fields, "args");
  const std::string& name = f.path;
  if (!command && !bundled)
    fail_at(w.where, fmt::format("\"{}\" needs \"command\" (or \"bundled\" for a bundled program)", name));
  if (command && bundled)
    fail_at(location(bundled->key, src), fmt::format("\"{}\" takes either \"command\" or \"bundled\", not both", name));
  if (args && !bundled)
    fail_at(location(args->key, src), fmt::format("\"{}.args\" needs \"bundled\" (use them in \"command\")", name));
  if (bundled) read_bundled(*bundled, args, src, w);
  else read_command(*command, src, w);
  if (const Field* launcher = find_field(fields, "launcher")) {
    w.launcher = read_launcher(*launcher, src);
    w.launcher_where = location(*launcher, src);
  }
  if (const Field* mpi = find_field(fields, "mpi")) {
    if (w.launcher != "srun" && w.launcher != "torchrun-env")
      fail_at(location(mpi->key, src),
              fmt::format("\"{}.mpi\" needs launcher srun or torchrun-env (it becomes srun --mpi)", name));
    w.mpi = read_mpi(*mpi, src);
  }
  if (const Field* when = find_field(fields, "when")) read_when(*when, src, st, w);
  return w;
}

}  // namespace

void read_workload(const Field& f, const Source& src, LoadState& st) {
  st.exp.workloads_where = location(f, src);
  if (!f.value.IsSequence()) {
    if (!f.value.IsMap()) fail_expected(f, src, "a map (command or bundled, ...) or a list of them with \"when\"");
    st.exp.workloads = {read_one_workload(f, src, st, false)};
    return;
  }
  const std::vector<Field> items = list_items(f, src);
  if (items.empty()) fail_at(location(f, src), "\"workload\" must list at least one workload");
  st.exp.workloads.clear();
  for (const Field& item : items) {
    Workload w = read_one_workload(item, src, st, true);
    if (!st.exp.workloads.empty() && !st.exp.workloads.back().when)
      fail_at(w.where, fmt::format("\"{}\" is never used: the entry before it has no \"when\" and takes every point "
                                   "(only the last entry may omit \"when\")",
                                   item.path));
    st.exp.workloads.push_back(std::move(w));
  }
}

void read_resources(const Field& f, const Source& src, LoadState& st) {
  std::vector<std::string_view> names;
  for (const sched::ResourceKey& k : sched::kResourceKeys) names.push_back(k.name);
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, names, src);
  for (const Field& r : fields) {
    const std::string key = key_name(r);
    if (sched::find_resource_key(key)->kind == sched::ResourceKey::Kind::list) {
      for (const Field& item : list_items(r, src))
        st.exp.resources.push_back({key, scalar_text(item, src, "an sbatch option such as --signal=USR1@60"),
                                    content_location(item, src)});
      continue;
    }
    const std::string value = scalar_text(r, src, "a single value (string or number)");
    if (value.find_first_of("\r\n") != std::string::npos)
      fail_at(location(r, src), fmt::format("\"{}\" must be on one line", r.path));
    if (sched::find_resource_key(key)->kind == sched::ResourceKey::Kind::count && value.find("{{") == std::string::npos &&
        !sched::is_count(value))
      fail_expected(r, src, "a positive integer (or a template such as \"{{nodes}}\")");
    // A templated time limit is known per point only; the local executor then has no limit.
    if (key == "time" && value.find("{{") == std::string::npos) st.exp.timeout_s = time_limit(r, src);
    st.exp.resources.push_back({key, value, content_location(r, src)});
  }
}

void read_workdir(const Field& f, const Source& src, LoadState& st) {
  static constexpr std::array<std::pair<std::string_view, Workdir::Kind>, 3> kNamed{
      {{"experiment", Workdir::Kind::experiment}, {"launch", Workdir::Kind::launch}, {"run", Workdir::Kind::run}}};
  const std::string text = scalar_text(f, src, "experiment, launch, run or a directory");
  if (text.empty() || text.find('\0') != std::string::npos)
    fail_expected(f, src, "experiment, launch, run or a directory");
  Workdir w{Workdir::Kind::path, text, location(f, src)};
  for (const auto& [name, kind] : kNamed)
    if (text == name) w = {kind, "", location(f, src)};
  st.exp.workdir = std::move(w);
}

void read_executor(const Field& f, const Source& src, LoadState& st) {
  check_in_table(f, src, sched::kExecutorNames, "executor");
  st.exp.executor = f.value.Scalar();
  st.exp.executor_where = location(f, src);
}

}  // namespace sweep::spec
