#pragma once
// One error type for the whole library. Library code throws sweep::Error; only main() prints it and
// maps its kind to an exit code (util/exit_codes.h).
#include <stdexcept>
#include <string>

namespace sweep {

/// A place in a user-supplied file. line and column are 1-based; 0 means "unknown".
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  /// "file:line:column", "file:line", "file", or "" depending on what is known.
  std::string str() const;
  /// The location `offset` columns to the right on the same line (unknown stays unknown).
  SourceLocation shifted(int offset) const;
};

/// What went wrong, coarse enough to choose an exit code.
enum class ErrorKind {
  usage,               // bad command-line arguments
  invalid_experiment,  // the experiment file is malformed or inconsistent
  not_found,           // a named campaign, file or record does not exist
  database,            // the results database cannot be used (locked, other schema, corrupt)
  io,                  // a file or process could not be created or read
  incomparable,        // a gate could not compare what it was asked to (campaigns whose points differ)
  interrupted,         // SIGINT or SIGTERM arrived before anything was written
  internal,            // a bug in sweep
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message, SourceLocation where = {});

  ErrorKind kind() const { return kind_; }
  const SourceLocation& where() const { return where_; }
  /// The bare message, without location.
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  SourceLocation where_;
  std::string message_;
};

/// Shorthand for the most common case: an invalid experiment at a known place.
[[noreturn]] void fail_at(const SourceLocation& where, const std::string& message);

}  // namespace sweep
