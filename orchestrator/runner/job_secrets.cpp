#include "runner/job_secrets.h"

#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/error.h"

namespace sweep::runner {
namespace fs = std::filesystem;
namespace {

/// P with ~/ as $HOME and a relative path taken from the experiment's directory.
std::string secret_path(const std::string& written, const spec::Experiment& e, const EnvLookup& lookup) {
  std::string path = written;
  if (path == "~" || path.rfind("~/", 0) == 0) path = lookup("HOME").value_or("") + path.substr(1);
  if (fs::path(path).is_relative()) path = (fs::absolute(e.path).parent_path() / path).string();
  return path;
}

/// The contents of a secret file, refused unless it is this user's regular file with no group or other
/// permission (OpenSSH's check on private keys).
std::string read_secret_file(const spec::EnvVar& v, const std::string& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0)
    fail_at(v.where, fmt::format("\"env.{}\": cannot read {}: no such file", v.name, path));
  if (!S_ISREG(st.st_mode))
    fail_at(v.where, fmt::format("\"env.{}\": {} is not a regular file (a symbolic link is not followed)", v.name, path));
  if (st.st_uid != ::geteuid())
    fail_at(v.where, fmt::format("\"env.{}\": {} is not owned by you (uid {}), so it is refused as a secret", v.name,
                                 path, ::geteuid()));
  if ((st.st_mode & 077) != 0)
    fail_at(v.where, fmt::format("\"env.{}\": permissions {:04o} for {} are too open: a secret file must be readable "
                                 "only by you (chmod 600 {})",
                                 v.name, st.st_mode & 07777, path, path));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) fail_at(v.where, fmt::format("\"env.{}\": cannot read {}", v.name, path));
  std::string value = text.str();
  if (!value.empty() && value.back() == '\n') value.pop_back();
  if (!value.empty() && value.back() == '\r') value.pop_back();
  return value;
}

std::string resolve_entry(const spec::EnvVar& v, const spec::Experiment& e, const EnvLookup& lookup) {
  using Source = spec::EnvVar::Source;
  if (v.source == Source::file) return read_secret_file(v, secret_path(v.value, e, lookup));
  if (v.source == Source::environment) {
    if (auto value = lookup(v.value)) return *value;
    fail_at(v.where, fmt::format("\"env.{}\": {{from_env: {}}} but {} is not set in sweep's environment", v.name,
                                 v.value, v.value));
  }
  if (v.value != kMask) return v.value;
  if (auto value = lookup(v.name)) return *value;
  fail_at(v.where, fmt::format("\"env.{}\" was a literal secret, stored masked (***): set {} in sweep's environment "
                               "to resume, and write {{from_env: {}}} in the experiment",
                               v.name, v.name, v.name));
}

bool from_experiment_file(const SourceLocation& where, const spec::Experiment& e) {
  return where.line > 0 && where.file == e.path;
}

}  // namespace

SecretSetup secret_setup(const std::vector<spec::SetupLine>& setup) {
  SecretSetup out;
  for (const spec::SetupLine& line : setup) {
    const auto found = secret_assignments(line.text);
    for (const SecretAssignment& a : found)
      out.literals.push_back({kSecretVariablePrefix + std::to_string(out.literals.size() + 1), a.name, a.value,
                              line.text.substr(a.begin, a.end - a.begin), a.masked, line.where});
    const std::size_t first = out.literals.size() - found.size();
    out.lines.push_back(replace_assignments(line.text, found, [&](std::size_t i) {
      return "\"${" + out.literals[first + i].variable + "}\"";
    }));
  }
  return out;
}

EnvLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
}

JobSecrets resolve_secrets(const spec::Experiment& e, const EnvLookup& lookup) {
  JobSecrets out;
  for (const spec::EnvVar& v : e.env) {
    if (!v.secret) continue;
    out.env.emplace_back(v.name, resolve_entry(v, e, lookup));
    out.masker.add(out.env.back().second);
  }
  for (const SecretSetup::Literal& l : secret_setup(e.setup).literals) {
    std::optional<std::string> value = l.masked ? lookup(l.name) : std::optional<std::string>(l.value);
    if (!value)
      fail_at(l.where, fmt::format("setup: {} was a literal secret, stored masked (***): set {} in sweep's "
                                   "environment to resume, and use an env entry {{from_env: {}}} instead",
                                   l.name, l.name, l.name));
    out.env.emplace_back(l.variable, *value);
    out.masker.add(*value);
  }
  return out;
}

std::vector<std::string> secret_warnings(const spec::Experiment& e) {
  std::vector<std::string> out;
  constexpr const char* kAdvice = "it is kept out of the job script and masked (***) in what sweep records, "
                                  "but it stays in the experiment file and a resume needs it from the environment";
  for (const spec::EnvVar& v : e.env)
    if (v.secret && v.source == spec::EnvVar::Source::literal && v.value != kMask && from_experiment_file(v.where, e))
      out.push_back(fmt::format("{}: warning: \"env.{}\" is a literal secret: {}; write {}: {{from_env: {}}} or "
                                "{{from_file: ~/.secrets/{}}} instead",
                                v.where.str(), v.name, kAdvice, v.name, v.name, v.name));
  for (const SecretSetup::Literal& l : secret_setup(e.setup).literals)
    if (!l.masked && from_experiment_file(l.where, e))
      out.push_back(fmt::format("{}: warning: setup line assigns a literal secret to {}: {}; set it with an env "
                                "entry {}: {{from_env: {}}} instead",
                                l.where.str(), l.name, kAdvice, l.name, l.name));
  return out;
}

namespace {

/// `text`, the file `path` (its `what`: "experiment", "site file"), with each literal secret of `env` and
/// `setup` that comes from that file masked in place.
std::string masked_file_text(std::string text, const std::string& path, std::string_view what,
                             const std::vector<spec::EnvVar>& env, const std::vector<spec::SetupLine>& setup) {
  const auto from_file = [&](const SourceLocation& where) { return where.line > 0 && where.file == path; };
  for (const spec::EnvVar& v : env) {
    if (!v.secret || v.source != spec::EnvVar::Source::literal || v.value == kMask || !from_file(v.where)) continue;
    auto masked = mask_scalar_at(text, v.value_at.line, v.value_at.column, v.value);
    if (!masked)
      fail_at(v.where, fmt::format("\"env.{}\": this literal secret cannot be masked in the stored {}; use "
                                   "{{from_env: {}}}",
                                   v.name, what, v.name));
    text = std::move(*masked);
  }
  for (const SecretSetup::Literal& l : secret_setup(setup).literals) {
    if (l.masked || !from_file(l.where)) continue;
    auto masked = mask_word_from(text, l.where.line, 1, l.word);
    if (!masked)
      fail_at(l.where, fmt::format("setup: the literal secret assigned to {} cannot be masked in the stored "
                                   "{}; use an env entry {}: {{from_env: {}}}",
                                   l.name, what, l.name, l.name));
    text = std::move(*masked);
  }
  return text;
}

}  // namespace

std::string recorded_text(const spec::Experiment& e) { return masked_file_text(e.text, e.path, "experiment", e.env, e.setup); }

std::string recorded_site_text(const spec::Site& site) {
  return masked_file_text(site.text, site.path, "site file", site.env, site.setup);
}

}  // namespace sweep::runner
