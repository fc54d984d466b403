// Reader of `retries`: further attempts per failure class, e.g. `retries: {NODE_FAIL: 2, TIMEOUT: 0}`.
#include <fmt/core.h>

#include "spec/failure_classes.h"
#include "spec/load_sections.h"
#include "util/strings.h"

namespace sweep::spec {

namespace {

/// The class a `retries` key names: its retry key (NODE_FAIL) or its stored name (node_fail).
const FailureClass* find_class(std::string_view key) {
  for (const FailureClass& c : kFailureClasses)
    if (c.retry_key == key || c.name == key) return &c;
  return nullptr;
}

}  // namespace

void read_retries(const Field& f, const Source& src, LoadState& st) {
  for (const Field& entry : map_fields(f, src)) {
    const std::string key = key_name(entry);
    const FailureClass* cls = find_class(key);
    if (!cls) {
      std::vector<std::string> keys;
      for (const FailureClass& c : kFailureClasses) keys.emplace_back(c.retry_key);
      fail_at(location(entry.key, src), fmt::format("unknown failure class \"{}\" in \"retries\" (expected one of: {}){}",
                                                    key, join(keys, ", "), did_you_mean(key, keys)));
    }
    st.exp.retries[std::string(cls->name)] =
        static_cast<int>(integer_in(entry, src, 0, 100, "a number of retries from 0 to 100"));
  }
}

}  // namespace sweep::spec
