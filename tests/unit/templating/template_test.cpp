#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "templating/render.h"

using namespace sweep;
using namespace sweep::templating;

namespace {

const SourceLocation kWhere{"exp.yaml", 4, 10};

Template make(std::string text) { return Template(std::move(text), kWhere); }

/// The message of the Error that `f` throws, or "" when it throws none.
template <typename F>
std::string error_of(F&& f, ErrorKind expected_kind = ErrorKind::invalid_experiment) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.kind() == expected_kind);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("names lists every referenced name once, in order") {
  const Template t =
      make("{{a}} {{{ b }}} {{& c}} {{# d }}{{a}}{{/ d }}{{^e}}x{{/e}}{{! a comment {{z}} }}{{  f  }} {{g.h}}");
  CHECK(t.names() == std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g.h"});
  CHECK(make("no tags at all").names().empty());
}

TEST_CASE("unsupported or broken syntax is an error at the template's location") {
  const auto error = [](std::string text) { return error_of([&] { make(text); }); };
  CHECK(error("x\n  {{> part}}") ==
        "exp.yaml:4:10: template line 2, column 3: partials ({{> name}}) are not supported");
  CHECK(error("{{=<% %>=}}") ==
        "exp.yaml:4:10: template line 1, column 1: set-delimiter tags ({{=<% %>=}}) are not supported");
  CHECK(error("ab {{x") == "exp.yaml:4:10: template line 1, column 4: unclosed tag: no \"}}\"");
  CHECK(error("{{{x}}") == "exp.yaml:4:10: template line 1, column 1: unclosed tag: no \"}}}\"");
  CHECK(error("{{#a}}") == "exp.yaml:4:10: template line 1, column 1: section \"a\" is never closed");
  CHECK(error("{{#a}}{{/b}}") ==
        "exp.yaml:4:10: template line 1, column 7: {{/b}} does not match the open section \"a\"");
  CHECK(error("{{/b}}") == "exp.yaml:4:10: template line 1, column 1: {{/b}} closes a section that was never opened");
  CHECK(error("{{ }}") == "exp.yaml:4:10: template line 1, column 1: empty tag: a variable name is needed");
  CHECK(error("{{.}}") == "exp.yaml:4:10: template line 1, column 1: the implicit iterator {{.}} is not supported");
  CHECK(error("{{a b}}") == "exp.yaml:4:10: template line 1, column 1: \"a b\" is not a valid variable name");
}

TEST_CASE("shell rendering quotes {{name}} and leaves raw tags alone") {
  const Template t = make("run {{arg}} {{{cmd}}} {{& cmd}}");
  const Variables vars{{"arg", "a b"}, {"cmd", "echo $HOME"}};
  CHECK(t.render(vars) == "run 'a b' echo $HOME echo $HOME");
  CHECK(t.render(vars, Escape::shell) == "run 'a b' echo $HOME echo $HOME");
  CHECK(make("{{x}}").render({{"x", "8"}}) == "8");
  CHECK(make("{{x}}").render({{"x", ""}}) == "''");
}

TEST_CASE("Escape::none inserts values verbatim, with no HTML escaping") {
  CHECK(make("<{{x}}>").render({{"x", "a&b <c> \"d\" 'e'"}}, Escape::none) == "<a&b <c> \"d\" 'e'>");
}

TEST_CASE("sections render for non-empty values other than false and 0") {
  const Template t = make("{{#flag}}on {{flag}}{{/flag}}{{^flag}}off{{/flag}}");
  CHECK(t.render({{"flag", "yes"}}) == "on yes");
  CHECK(t.render({{"flag", "1"}}) == "on 1");
  CHECK(t.render({{"flag", "true"}}) == "on true");
  CHECK(t.render({{"flag", ""}}) == "off");
  CHECK(t.render({{"flag", "false"}}) == "off");
  CHECK(t.render({{"flag", "0"}}) == "off");
  CHECK(make("--seed={{seed}}").render({{"seed", "0"}}) == "--seed=0");
}

TEST_CASE("standalone section lines leave no blank lines") {
  const Template t = make("#!/bin/sh\n{{#gpus}}\nexport G={{gpus}}\n{{/gpus}}\nrun\n");
  CHECK(t.render({{"gpus", "4"}}) == "#!/bin/sh\nexport G=4\nrun\n");
  CHECK(t.render({{"gpus", ""}}) == "#!/bin/sh\nrun\n");
}

TEST_CASE("dotted names are plain names") { CHECK(make("{{a.b}}").render({{"a.b", "x"}, {"a", "y"}}) == "x"); }

TEST_CASE("a missing variable is an error with a suggestion") {
  const Template t = make("{{modle}}");
  CHECK(error_of([&] {
          t.render({{"model", "gpt"}, {"seed", "1"}});
        }) == "exp.yaml:4:10: unknown template variable \"modle\" (did you mean \"model\"?)");
  CHECK(error_of([&] {
          make("{{#zzz}}{{/zzz}}").render({{"model", "gpt"}});
        }) == "exp.yaml:4:10: unknown template variable \"zzz\"");
}

TEST_CASE("check_names accepts known names and rejects unknown ones") {
  const Template t = make("{{model}} {{#gpus}}{{gpus}}{{/gpus}}");
  CHECK_NOTHROW(t.check_names({"gpus", "model", "other"}));
  CHECK(error_of([&] {
          t.check_names({"gpu", "model"});
        }) == "exp.yaml:4:10: unknown template variable \"gpus\" (did you mean \"gpu\"?)");
}

TEST_CASE("template text round-trips and rendering is repeatable") {
  const Template t = make("a {{x}}");
  CHECK(t.text() == "a {{x}}");
  CHECK(t.render({{"x", "1"}}) == t.render({{"x", "1"}}));
}

TEST_CASE("load_template_file reads a file and its errors name the path") {
  std::string dir = "/tmp/sweep-template-XXXXXX";
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  const std::string path = dir + "/job.sh.tmpl";
  { std::ofstream(path) << "echo {{msg}}\n"; }
  const Template t = load_template_file(path);
  CHECK(t.render({{"msg", "hi there"}}) == "echo 'hi there'\n");
  { std::ofstream(path) << "ok\n{{> part}}\n"; }
  CHECK(error_of([&] { load_template_file(path); }) ==
        path + ":1:1: template line 2, column 1: partials ({{> name}}) are not supported");
  std::remove(path.c_str());
  const std::string expected = " (a regular file of at most 1 MiB is expected)";
  CHECK(error_of([&] { load_template_file(path); }, ErrorKind::io) == "cannot read template file \"" + path + "\": missing" + expected);
  CHECK(error_of([&] { load_template_file(dir); }, ErrorKind::io) ==
        "cannot read template file \"" + dir + "\": not a regular file" + expected);
  // A FIFO is refused, not waited on (nobody writes it), and a device is not read until memory runs out.
  const std::string fifo = dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(error_of([&] { load_template_file(fifo); }, ErrorKind::io) ==
        "cannot read template file \"" + fifo + "\": not a regular file" + expected);
  std::remove(fifo.c_str());
  CHECK(error_of([&] { load_template_file("/dev/zero"); }, ErrorKind::io) ==
        "cannot read template file \"/dev/zero\": not a regular file" + expected);
  { std::ofstream(path) << std::string(kMaxTemplateBytes + 1, 'x'); }
  CHECK(error_of([&] { load_template_file(path); }, ErrorKind::io) ==
        "cannot read template file \"" + path + "\": 1048577 bytes, over the limit of 1048576" + expected);
  std::remove(path.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("standalone tags drop their whole line, indented or with CRLF") {
  const Template t = make("a\n  {{#x}}  \r\nin {{x}}\n  {{/x}}\n{{! note }}\nb {{#x}}y{{/x}}\n");
  CHECK(t.render({{"x", "1"}}) == "a\nin 1\nb y\n");
  CHECK(t.render({{"x", "0"}}) == "a\nb \n");
  CHECK(make("{{#x}}\n{{x}}\n{{/x}}").render({{"x", "v"}}) == "v\n");
}

TEST_CASE("random tag soup either parses and renders or throws sweep::Error") {
  const std::vector<std::string> pieces{"{{", "}}", "{{{", "}}}", "{", "}",  "#",    "^", "/",   "&",    "!",
                                        ">",  "=",  "a",   "b",   " ", "\n", "\r\n", ".", "x.y", "\x1f", "\xff"};
  std::uint32_t state = 2463534242u;  // xorshift: deterministic and dependency-free
  const auto next = [&] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  const Variables vars{{"a", "1"}, {"b", ""}, {"x.y", "z"}};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (std::uint32_t n = next() % 12; n > 0; --n) text += pieces[next() % pieces.size()];
    INFO("template: " << text);
    try {
      const Template t(text, kWhere);
      try {
        (void)t.render(vars);
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::invalid_experiment);
      }
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::invalid_experiment);
    }
  }
}
