#pragma once
// Matrix expansion: the experiment's axes, zip groups, derived values and exclusions turned into
// points. Pure: no I/O. Lazy: for_each() streams points without materialising them, so a
// 1,000,000-point matrix plans in constant memory.
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "spec/experiment.h"
#include "util/value.h"

namespace sweep::matrix {

/// The names of a point's values: the parameters (spec order), then the derived values.
struct Schema {
  std::vector<std::string> names;
  std::size_t parameter_count = 0;

  std::span<const std::string> parameters() const { return {names.data(), parameter_count}; }
  std::span<const std::string> derived() const {
    return {names.data() + parameter_count, names.size() - parameter_count};
  }
};

/// A point as seen during iteration. `values` is in schema order and valid only inside the callback.
struct PointView {
  std::span<const Value> values;
  std::uint64_t ordinal = 0;  // 0-based position among the points that survive exclusion
};

/// A materialised point.
struct Point {
  std::string id;  // point_id() of its parameters
  std::uint64_t ordinal = 0;
  std::vector<Value> values;  // schema order
};

class Expansion {
 public:
  /// Binds the experiment's expressions to the schema. Copies what it needs: the experiment may die.
  explicit Expansion(const spec::Experiment& experiment);

  const Schema& schema() const { return schema_; }
  /// The number of combinations before exclusion (the product over axes, a zip group counting once),
  /// saturated at UINT64_MAX.
  std::uint64_t combinations() const;
  /// Each odometer digit's name and number of values, in file order: an axis's key, or a zip group's
  /// keys joined by "+" (for messages about the matrix's size).
  std::vector<std::pair<std::string, std::uint64_t>> unit_sizes() const;
  /// Whether the experiment excludes points (combinations() is then only an upper bound).
  bool has_exclusions() const { return !excludes_.empty(); }

  /// Calls `fn` for every point that survives exclusion, in order: axes in file order, the last axis
  /// varying fastest. `fn` returns false to stop early. Expression errors (e.g. division by zero)
  /// throw Error(invalid_experiment) at the expression, naming the point's parameters. Stops early too,
  /// as if `fn` returned false, once `*cancel` holds (read every 4096 combinations, excluded ones
  /// included: a walk that excludes nearly everything still notices).
  void for_each(const std::function<bool(const PointView&)>& fn, const std::atomic<bool>* cancel = nullptr) const;

  /// Every surviving point, materialised with its id.
  std::vector<Point> points() const;

 private:
  /// One odometer digit: an axis, or a zip group whose axes advance together. Each of its positions
  /// assigns values to a fixed set of schema slots.
  struct Unit {
    std::string label;  // the axis key, or the zip group's keys joined by "+"
    std::vector<std::size_t> slots;
    std::vector<std::vector<Value>> rows;  // rows[position][k] goes to slots[k]
  };
  /// An exclusion compiled to slot indices: either a partial match or a bound expression.
  struct Exclude {
    std::vector<std::pair<std::size_t, Value>> match;
    std::optional<spec::Expr> where;
  };

  bool excluded(std::span<const Value> values) const;
  void evaluate_derived(std::vector<Value>& values) const;

  Schema schema_;
  std::vector<Unit> units_;
  std::vector<spec::Derived> derived_;
  std::vector<Exclude> excludes_;
};

/// The stable id of a point: the first 16 hex digits of the SHA-256 of its parameters (not derived
/// values), each as "name\x1ftype\x1fcanonical-text\x1e", sorted by name. The same parameters give
/// the same id in every campaign and every release.
std::string point_id(const Schema& schema, std::span<const Value> values);

/// "name=value, name=value" over the parameters, for messages.
std::string describe_point(const Schema& schema, std::span<const Value> values);

}  // namespace sweep::matrix
