#pragma once
// Whether rendered shell text is one simple command (a program and its words), as a container runtime
// or torchrun-env's `exec "$@"` starts it: a control operator outside quotes would end the command there,
// and what follows would run in the job shell instead. Pure.
#include <optional>
#include <string>
#include <string_view>

namespace sweep::templating {

/// The first control operator of `text` outside quotes and comments (";", "&&", "||", "&", "|", "(",
/// ")", or "a line break"), or nullopt when `text` is one simple command. Single quotes, double quotes
/// (with their backslash escapes) and a backslash outside quotes are honoured; redirections (`>`, `<`)
/// and expansions (`$VAR`, `$(...)`) are words of the simple command; trailing blanks and line breaks
/// do not count.
std::optional<std::string> control_operator(std::string_view text);

}  // namespace sweep::templating
