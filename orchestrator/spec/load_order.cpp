// `order`: the order in which a campaign's runs start (docs/experiment-format.md#order).
#include <fmt/core.h>

#include <array>
#include <cstdint>
#include <utility>

#include "spec/load_sections.h"
#include "spec/yaml_read.h"

namespace sweep::spec {
namespace {

constexpr std::array<std::pair<std::string_view, RunOrder::Kind>, 3> kKinds{{
    {"interleaved", RunOrder::Kind::interleaved},
    {"grouped", RunOrder::Kind::grouped},
    {"random", RunOrder::Kind::random},
}};
constexpr std::array<std::string_view, 3> kKindNames{"interleaved", "grouped", "random"};
constexpr std::array<std::string_view, 2> kMapKeys{"kind", "seed"};

RunOrder::Kind read_kind(const Field& f, const Source& src) {
  check_in_table(f, src, kKindNames, "order");
  for (const auto& [name, kind] : kKinds)
    if (name == f.value.Scalar()) return kind;
  fail_expected(f, src, "interleaved, grouped or random");
}

}  // namespace

void read_order(const Field& f, const Source& src, LoadState& st) {
  st.exp.order = RunOrder{};
  if (!f.value.IsMap()) {
    st.exp.order.kind = read_kind(f, src);
    return;
  }
  const std::vector<Field> fields = map_fields(f, src);
  check_keys(fields, kMapKeys, src);
  const Field* kind = find_field(fields, "kind");
  if (!kind) fail_at(location(f, src), "\"order\" as a map needs \"kind\" (interleaved, grouped or random)");
  st.exp.order.kind = read_kind(*kind, src);
  if (const Field* seed = find_field(fields, "seed")) {
    if (st.exp.order.kind != RunOrder::Kind::random)
      fail_at(location(*seed, src), "\"order.seed\" is for kind: random only");
    st.exp.order.seed = static_cast<std::uint64_t>(integer_in(*seed, src, 0, INT64_MAX, "an integer >= 0"));
  }
}

}  // namespace sweep::spec
