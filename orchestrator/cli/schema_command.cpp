// sweep schema: prints the JSON Schema of the experiment format (spec/schema.h) for editors.
#include <fmt/core.h>

#include "cli/command.h"
#include "spec/schema.h"

namespace sweep::cli {

void add_schema(CLI::App& sub, Action& action) {
  sub.footer("VS Code (YAML extension): put '# yaml-language-server: $schema=<file>' on an experiment's first line, "
             "<file> being this output saved (sweep's own copy: schema/experiment.schema.json). sweep plan stays "
             "the authority: the schema refuses only what sweep refuses too.");
  sub.callback([&action] {
    action = [] {
      fmt::print("{}", spec::experiment_schema());
      return 0;
    };
  });
}

}  // namespace sweep::cli
