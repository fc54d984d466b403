#include "util/value.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>

#include "util/error.h"

namespace sweep {

namespace {
constexpr std::array<std::string_view, 4> kTypeNames{"bool", "int", "float", "string"};
}

std::string Value::text() const {
  switch (type()) {
    case ValueType::boolean: return as_bool() ? "true" : "false";
    case ValueType::integer: return fmt::format("{}", as_int());
    case ValueType::real: {
      const double d = as_real();
      if (std::isnan(d)) return "nan";
      if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
      std::string s = fmt::format("{}", d);
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case ValueType::string: return as_string();
  }
  return {};
}

std::string_view type_name(ValueType t) { return kTypeNames[static_cast<std::size_t>(t)]; }

ValueType type_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kTypeNames.size(); ++i)
    if (kTypeNames[i] == name) return static_cast<ValueType>(i);
  throw Error(ErrorKind::internal, fmt::format("unknown value type \"{}\"", name));
}

Value value_from_text(std::string_view text, ValueType t) {
  switch (t) {
    case ValueType::boolean: return Value(text == "true");
    case ValueType::integer: {
      std::int64_t i = 0;
      std::from_chars(text.data(), text.data() + text.size(), i);
      return Value(i);
    }
    case ValueType::real: {
      if (text == "nan") return Value(std::nan(""));
      if (text == "inf") return Value(HUGE_VAL);
      if (text == "-inf") return Value(-HUGE_VAL);
      double d = 0;
      std::from_chars(text.data(), text.data() + text.size(), d);
      return Value(d);
    }
    case ValueType::string: return Value(std::string(text));
  }
  return Value();
}

}  // namespace sweep
