#pragma once
// A typed parameter value: what a matrix entry, a derived expression or a stored parameter holds.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace sweep {

enum class ValueType { boolean, integer, real, string };

class Value {
 public:
  Value() : v_(std::string()) {}
  Value(bool b) : v_(b) {}
  Value(std::int64_t i) : v_(i) {}
  Value(int i) : v_(static_cast<std::int64_t>(i)) {}
  Value(double d) : v_(d) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(const char* s) : v_(std::string(s)) {}

  ValueType type() const { return static_cast<ValueType>(v_.index()); }
  bool is_bool() const { return type() == ValueType::boolean; }
  bool is_int() const { return type() == ValueType::integer; }
  bool is_real() const { return type() == ValueType::real; }
  bool is_number() const { return is_int() || is_real(); }
  bool is_string() const { return type() == ValueType::string; }

  bool as_bool() const { return std::get<bool>(v_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
  double as_real() const { return std::get<double>(v_); }
  /// Integer or real as double. Precondition: is_number().
  double as_number() const { return is_int() ? static_cast<double>(as_int()) : as_real(); }
  const std::string& as_string() const { return std::get<std::string>(v_); }

  /// Canonical text: integers in decimal, reals in shortest round-trip form (always with a '.',
  /// 'e', "inf" or "nan"), booleans as true/false, strings verbatim. Stable across releases:
  /// point ids hash it.
  std::string text() const;

  friend bool operator==(const Value& a, const Value& b) { return a.v_ == b.v_; }

 private:
  std::variant<bool, std::int64_t, double, std::string> v_;
};

/// "bool", "int", "float" or "string": the names stored in the database and shown in errors.
std::string_view type_name(ValueType t);
/// Inverse of type_name; throws sweep::Error (internal) for an unknown name.
ValueType type_from_name(std::string_view name);
/// Rebuilds a value from its canonical text and type name, as stored in the database.
Value value_from_text(std::string_view text, ValueType t);

}  // namespace sweep
