#include "util/error.h"

#include <fmt/core.h>

namespace sweep {

std::string SourceLocation::str() const {
  if (file.empty() && line == 0) return "";
  if (line == 0) return file;
  if (column == 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

SourceLocation SourceLocation::shifted(int offset) const {
  SourceLocation out = *this;
  if (out.column > 0) out.column += offset;
  return out;
}

static std::string compose(const SourceLocation& where, const std::string& message) {
  const std::string place = where.str();
  return place.empty() ? message : place + ": " + message;
}

Error::Error(ErrorKind kind, std::string message, SourceLocation where)
    : std::runtime_error(compose(where, message)),
      kind_(kind),
      where_(std::move(where)),
      message_(std::move(message)) {}

void fail_at(const SourceLocation& where, const std::string& message) {
  throw Error(ErrorKind::invalid_experiment, message, where);
}

}  // namespace sweep
