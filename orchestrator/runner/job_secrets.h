#pragma once
// The secrets of a campaign (docs/experiment-format.md#secrets): the values of its secret `env`
// entries and of the literal secrets in its `setup` lines, resolved before anything runs and handed to
// each job through its process environment (exec::Job::env, the scheduler's submit environment), never
// its script; the masker for everything sweep records; and the experiment text as stored.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "spec/experiment.h"
#include "spec/site.h"
#include "util/secrets.h"

namespace sweep::runner {

using EnvPairs = std::vector<std::pair<std::string, std::string>>;

/// Prefix of the variables that carry a setup line's literal secret into the job ("SWEEP_SECRET_1", ...).
inline constexpr const char* kSecretVariablePrefix = "SWEEP_SECRET_";

/// `setup` lines with the word of each literal secret assignment (util/secrets.h) replaced by
/// "${SWEEP_SECRET_<k>}", k counting from 1 over all lines in order, and those variables' values. A
/// masked assignment (NAME=*** in a stored experiment) is replaced the same way; its value is "". Pure.
struct SecretSetup {
  struct Literal {
    std::string variable;  // SWEEP_SECRET_<k>
    std::string name;      // the assigned name, e.g. HF_TOKEN
    std::string value;     // the literal as the shell reads it ("***" when masked)
    std::string word;      // as written in the line
    bool masked = false;
    SourceLocation where;  // the setup line
  };
  std::vector<std::string> lines;
  std::vector<Literal> literals;
};
SecretSetup secret_setup(const std::vector<spec::SetupLine>& setup);

/// Looks up a variable of the controller's environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
/// The controller's own environment (getenv).
EnvLookup process_environment();

struct JobSecrets {
  EnvPairs env;   // added to every job's process environment
  Masker masker;  // every secret value: masked in what sweep records
};

/// Resolves every secret of `e`: {from_env: X} from `lookup`; {from_file: P} read from P (~/ is $HOME;
/// relative to the experiment's directory; one trailing newline dropped), which must be a regular file
/// owned by this user and neither group- nor other-accessible, as OpenSSH's StrictModes; a literal
/// kept; a literal masked in a stored experiment (***, resume) from `lookup` of its own name.
/// Error(invalid_experiment) at the entry's file:line:column for a missing variable or file, an unsafe
/// file, or a masked literal whose variable is not set.
JobSecrets resolve_secrets(const spec::Experiment& e, const EnvLookup& lookup);

/// One warning per literal secret of the experiment file (env and setup), each at its file:line:column
/// and naming the reference form.
std::vector<std::string> secret_warnings(const spec::Experiment& e);

/// The experiment's text as the database stores it (and hashes): each literal secret of the experiment
/// file masked in place ("***"); references are kept as written. Error(invalid_experiment) at a secret
/// that cannot be found in the text to mask.
std::string recorded_text(const spec::Experiment& e);

/// The site file's text as a campaign records it (runner/campaign_settings.h), its literal secrets
/// masked the same way; a resume takes their values from sweep's environment, as for the experiment's.
std::string recorded_site_text(const spec::Site& site);

}  // namespace sweep::runner
