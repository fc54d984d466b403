// Readers of `matrix`, `zip` and `exclude`, and --set on matrix keys.
#include <fmt/core.h>

#include <algorithm>

#include "spec/load_sections.h"
#include "util/strings.h"

namespace sweep::spec {
namespace {

std::vector<std::string> axis_keys(const Experiment& exp) {
  std::vector<std::string> keys;
  for (const Axis& a : exp.matrix) keys.push_back(a.key);
  return keys;
}

const Axis* find_axis(const Experiment& exp, std::string_view key) {
  for (const Axis& a : exp.matrix)
    if (a.key == key) return &a;
  return nullptr;
}

std::vector<std::string> names_of(const std::vector<Param>& params) {
  std::vector<std::string> out;
  for (const Param& p : params) out.push_back(p.name);
  return out;
}

Choice scalar_choice(const Field& item, const Source& src, const std::string& key) {
  return Choice{{Param{key, scalar_value(item, src)}}, location(item, src)};
}

/// A map choice, with its params ordered like `first` (the axis's first choice) when given.
Choice map_choice(const Field& item, const Source& src, const Choice* first) {
  Choice c{{}, location(item, src)};
  const std::vector<Field> fields = map_fields(item, src);
  if (fields.empty()) fail_at(c.where, fmt::format("\"{}\" must have at least one field", item.path));
  for (const Field& f : fields) {
    check_param_name(key_name(f), location(f.key, src), "parameter");
    c.params.push_back(Param{key_name(f), scalar_value(f, src)});
  }
  if (!first) return c;
  std::vector<std::string> want = names_of(first->params), got = names_of(c.params);
  std::vector<std::string> want_sorted = want, got_sorted = got;
  std::sort(want_sorted.begin(), want_sorted.end());
  std::sort(got_sorted.begin(), got_sorted.end());
  if (want_sorted != got_sorted)
    fail_at(c.where, fmt::format("\"{}\" has fields ({}) but the first choice has ({}); every choice of a map "
                                 "axis needs the same fields",
                                 item.path, join(got, ", "), join(want, ", ")));
  std::vector<Param> ordered;
  for (const std::string& name : want)
    ordered.push_back(*std::find_if(c.params.begin(), c.params.end(), [&](const Param& p) { return p.name == name; }));
  c.params = std::move(ordered);
  return c;
}

void check_distinct_choices(const Axis& axis) {
  for (std::size_t i = 1; i < axis.choices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (axis.choices[i].params != axis.choices[j].params) continue;
      const int line = axis.choices[j].where.line;  // 0 in a --set override, which has no lines
      fail_at(axis.choices[i].where, fmt::format("matrix \"{}\" lists the same value twice{}", axis.key,
                                                 line > 0 ? fmt::format(" (first at line {})", line) : ""));
    }
}

std::vector<Field> axis_items(const Field& a, const Source& src) {
  if (!a.value.IsSequence())
    fail_at(location(a, src), fmt::format("\"{}\" must be a list of values, got {}{}", a.path, describe(a.value),
                                          a.value.IsScalar() ? " (write [value] for a single value)" : ""));
  std::vector<Field> items = list_items(a, src);
  if (items.empty()) fail_at(location(a, src), fmt::format("\"{}\" must have at least one value", a.path));
  return items;
}

Axis read_axis(const Field& a, const Source& src, LoadState& st) {
  Axis axis{key_name(a), location(a.key, src), {}, {}};
  check_param_name(axis.key, axis.where, "matrix key");
  const std::vector<Field> items = axis_items(a, src);
  const bool maps = items.front().value.IsMap();
  for (const Field& item : items) {
    if (item.value.IsSequence())
      fail_at(location(item, src), fmt::format("\"{}\": nested lists are not allowed in a matrix axis", item.path));
    if (item.value.IsMap() != maps)
      fail_at(location(item, src),
              fmt::format("\"{}\" is {} but the first choice is {}; an axis holds only "
                          "scalars or only maps",
                          item.path, item.value.IsMap() ? "a map" : "a scalar", maps ? "a map" : "a scalar"));
    axis.choices.push_back(maps ? map_choice(item, src, axis.choices.empty() ? nullptr : &axis.choices.front())
                                : scalar_choice(item, src, axis.key));
  }
  axis.param_names = names_of(axis.choices.front().params);
  if (maps) st.map_axes.push_back(axis.key);
  check_distinct_choices(axis);
  return axis;
}

void check_unique_params(const Experiment& exp, const Axis& added) {
  for (const std::string& name : added.param_names)
    for (const Axis& other : exp.matrix) {
      if (std::find(other.param_names.begin(), other.param_names.end(), name) == other.param_names.end()) continue;
      fail_at(added.where, fmt::format("parameter \"{}\" is defined twice: by matrix \"{}\" (line {}) and by "
                                       "matrix \"{}\"",
                                       name, other.key, other.where.line, added.key));
    }
}

// Exactly: `zip group [a, b]: "a" has 3 values but "b" has 2`, plus a hint when --set caused it.
void check_zip_lengths(const ZipGroup& g, const Experiment& exp, const LoadState& st) {
  const Axis& first = *find_axis(exp, g.keys.front());
  for (const std::string& key : g.keys) {
    const Axis& a = *find_axis(exp, key);
    if (a.choices.size() == first.choices.size()) continue;
    std::string hint;
    for (const std::string& k : g.keys)
      if (std::find(st.overridden_axes.begin(), st.overridden_axes.end(), k) != st.overridden_axes.end())
        hint = fmt::format(" (\"{}\" was replaced by --set; --set every key of a zip group or none)", k);
    fail_at(g.where,
            fmt::format("zip group [{}]: \"{}\" has {} value{} but \"{}\" has {}{}", join(g.keys, ", "), first.key,
                        first.choices.size(), first.choices.size() == 1 ? "" : "s", a.key, a.choices.size(), hint));
  }
}

ZipGroup read_zip_group(const Field& g, const Source& src, const LoadState& st, std::vector<ZipGroup>& done) {
  ZipGroup group{{}, location(g, src)};
  const std::vector<std::string> keys = axis_keys(st.exp);
  for (const Field& k : list_items(g, src)) {
    const std::string key = scalar_text(k, src, "a matrix key");
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      fail_at(location(k, src), fmt::format("unknown matrix key \"{}\" in zip{}", key, did_you_mean(key, keys)));
    for (const ZipGroup& other : done)
      if (std::find(other.keys.begin(), other.keys.end(), key) != other.keys.end())
        fail_at(location(k, src), fmt::format("\"{}\" is already in the zip group at line {}", key, other.where.line));
    if (std::find(group.keys.begin(), group.keys.end(), key) != group.keys.end())
      fail_at(location(k, src), fmt::format("\"{}\" is listed twice in this zip group", key));
    group.keys.push_back(key);
  }
  if (group.keys.size() < 2)
    fail_at(group.where, fmt::format("\"{}\" must list at least 2 matrix keys to pair", g.path));
  return group;
}

ExcludeRule read_where(const Field& entry, const Field& where, const Source& src, const LoadState& st) {
  if (map_fields(entry, src).size() > 1)
    fail_at(location(entry, src), fmt::format("\"{}\" is either {{where: \"expression\"}} or parameter values, "
                                              "not both",
                                              entry.path));
  const std::string text = scalar_text(where, src, "an expression string");
  ExcludeRule rule{{}, Expr::parse(text, content_location(where, src)), location(entry, src)};
  rule.where->bind(st.exp.parameter_names());
  return rule;
}

ExcludeRule read_exclude_entry(const Field& entry, const Source& src, const LoadState& st) {
  if (!entry.value.IsMap()) fail_expected(entry, src, "a map: {parameter: value, ...} or {where: \"expression\"}");
  const std::vector<Field> fields = map_fields(entry, src);
  if (const Field* where = find_field(fields, "where")) return read_where(entry, *where, src, st);
  if (fields.empty()) fail_at(location(entry, src), fmt::format("\"{}\" needs at least one parameter", entry.path));
  std::vector<std::string> params;
  for (const Axis& a : st.exp.matrix) params.insert(params.end(), a.param_names.begin(), a.param_names.end());
  ExcludeRule rule{{}, std::nullopt, location(entry, src)};
  for (const Field& f : fields) {
    const std::string name = key_name(f);
    if (std::find(params.begin(), params.end(), name) == params.end())
      fail_at(location(f.key, src),
              fmt::format("unknown parameter \"{}\" in exclude{}", name, did_you_mean(name, params)));
    rule.match.push_back(Param{name, scalar_value(f, src)});
  }
  return rule;
}

}  // namespace

void read_matrix(const Field& f, const Source& src, LoadState& st) {
  const std::vector<Field> axes = map_fields(f, src);
  if (axes.empty()) fail_at(location(f, src), "\"matrix\" must declare at least one axis");
  for (const Field& a : axes) {
    Axis axis = read_axis(a, src, st);
    check_unique_params(st.exp, axis);
    st.exp.matrix.push_back(std::move(axis));
  }
}

void override_axis(Axis& axis, const Field& f, const Source& src, LoadState& st) {
  if (std::find(st.map_axes.begin(), st.map_axes.end(), axis.key) != st.map_axes.end())
    fail_at(location(f, src), fmt::format("cannot --set map axis \"{}\" (its choices are maps); edit the "
                                          "experiment file instead",
                                          axis.key));
  axis.choices.clear();
  if (f.value.IsSequence()) {
    for (const Field& item : axis_items(f, src)) {
      if (!item.value.IsScalar()) fail_expected(item, src, "a scalar value");
      axis.choices.push_back(scalar_choice(item, src, axis.key));
    }
    check_distinct_choices(axis);
  } else {
    axis.choices.push_back(scalar_choice(f, src, axis.key));
  }
  st.overridden_axes.push_back(axis.key);
}

void read_zip(const Field& f, const Source& src, LoadState& st) {
  for (const Field& g : list_items(f, src)) {
    if (!g.value.IsSequence()) fail_expected(g, src, "a list of matrix keys, e.g. [model, batch]");
    ZipGroup group = read_zip_group(g, src, st, st.exp.zip);
    check_zip_lengths(group, st.exp, st);
    st.exp.zip.push_back(std::move(group));
  }
}

void read_exclude(const Field& f, const Source& src, LoadState& st) {
  for (const Field& entry : list_items(f, src)) st.exp.exclude.push_back(read_exclude_entry(entry, src, st));
}

}  // namespace sweep::spec
