#include "report/figure_style.h"

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.h"
#include "util/error.h"

using namespace sweep::report;
namespace fs = std::filesystem;

TEST_CASE("a style file of set and unset lines is accepted") {
  CHECK_FALSE(check_style_text("# mine\n\nset key box\nunset grid\n  set ylabel '$\\mu$s'\n"
                               "if (sweep_output eq 'paper') set xlabel 'Batch size $B$'\nset offsets 0,0,0,0\n"
                               "set format y '%.1f'\nset title 'system time'\n"));
}

TEST_CASE("a style file line that could run a command or move the output is refused at its line and column") {
  struct Case {
    const char* text;
    int line, column;
    const char* says;
  };
  const Case cases[] = {
      {"set key\nsystem('id')\n", 2, 1, "only set and unset lines"},
      {"set key\n  !id\n", 2, 3, "only set and unset lines"},
      {"load 'x.gp'\n", 1, 1, "only set and unset lines"},
      {"set output '|id'\n", 1, 1, "the terminal and the output are sweep's"},
      {"set o 'x'\n", 1, 1, "the terminal and the output are sweep's"},
      {"set term svg\n", 1, 1, "the terminal and the output are sweep's"},
      {"set print 'f'\n", 1, 1, "the terminal and the output are sweep's"},
      {"set table 't'\n", 1, 1, "the terminal and the output are sweep's"},
      {"set xlabel system(\"id\")\n", 1, 1, "system()"},
      {"set xlabel `id`\n", 1, 1, "backquote"},
      {"set xlabel @m\n", 1, 1, "macro"},
      {"set key; !id\n", 1, 1, "second command"},
      {"set xlabel 'a' \\\n", 1, 1, "continued"},
      {"if (1) set key\n", 1, 1, "only set and unset lines"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto problem = check_style_text(c.text);
    REQUIRE(problem);
    CHECK(problem->line == c.line);
    CHECK(problem->column == c.column);
    CHECK_THAT(problem->message, Catch::Contains(c.says));
  }
}

TEST_CASE("a style file is found against the experiment's directory, and a missing or refused one is an error at its place") {
  TempDir dir;
  std::ofstream(dir.path / "mine.gp") << "set key box\n";
  std::ofstream(dir.path / "bad.gp") << "set key\nset output '|id'\n";
  const sweep::SourceLocation at{"exp.yaml", 12, 14};
  const auto mine = resolve_style({"mine.gp", at, {}}, dir.path.string());
  CHECK(mine.path == (dir.path / "mine.gp").string());
  CHECK(mine.text == "set key box\n");
  // A Windows editor's CR line ends are dropped, and the last line is ended: the figure script's lines.
  std::ofstream(dir.path / "crlf.gp") << "set key box\r\nunset grid";
  CHECK(resolve_style({"crlf.gp", at, {}}, dir.path.string()).text == "set key box\nunset grid\n");
  CHECK_THROWS_WITH(resolve_style({"nope.gp", at, {}}, dir.path.string()),
                    Catch::StartsWith("exp.yaml:12:14: style file \"nope.gp\"") && Catch::Contains("missing"));
  CHECK_THROWS_WITH(resolve_style({"bad.gp", at, {}}, dir.path.string()),
                    Catch::StartsWith((dir.path / "bad.gp").string() + ":2:1: \"set output\""));
}

TEST_CASE("a style file is read once: what is checked is what the figure uses, whatever the file says later") {
  TempDir dir;
  std::ofstream(dir.path / "mine.gp") << "set key box\n";
  const auto mine = resolve_style({"mine.gp", {"exp.yaml", 1, 1}, {}}, dir.path.string());
  std::ofstream(dir.path / "mine.gp", std::ios::trunc) << "set output '|id > /tmp/owned'\n";  // swapped after the check
  CHECK(mine.text == "set key box\n");
}

TEST_CASE("a style file that is a symlink, writable by others or another user's is refused where the experiment names it") {
  TempDir dir;
  const sweep::SourceLocation at{"exp.yaml", 4, 9};
  std::ofstream(dir.path / "mine.gp") << "set key box\n";
  fs::create_symlink(dir.path / "mine.gp", dir.path / "link.gp");
  CHECK_THROWS_WITH(resolve_style({"link.gp", at, {}}, dir.path.string()),
                    Catch::StartsWith("exp.yaml:4:9: style file \"link.gp\"") && Catch::Contains("symlink"));
  std::ofstream(dir.path / "open.gp") << "set key box\n";
  fs::permissions(dir.path / "open.gp", fs::perms::others_write, fs::perm_options::add);
  CHECK_THROWS_WITH(resolve_style({"open.gp", at, {}}, dir.path.string()),
                    Catch::StartsWith("exp.yaml:4:9: style file \"open.gp\"") && Catch::Contains("not trusted"));
  std::ofstream(dir.path / "group.gp") << "set key box\n";
  fs::permissions(dir.path / "group.gp", fs::perms::group_write, fs::perm_options::add);
  CHECK_THROWS_WITH(resolve_style({"group.gp", at, {}}, dir.path.string()), Catch::Contains("not trusted"));
  REQUIRE(::mkfifo((dir.path / "fifo.gp").c_str(), 0600) == 0);  // refused without blocking on the open
  CHECK_THROWS_WITH(resolve_style({"fifo.gp", at, {}}, dir.path.string()), Catch::Contains("not a regular file"));
  std::ofstream(dir.path / "big.gp") << std::string(kStyleFileMaxBytes + 1, '#');
  CHECK_THROWS_WITH(resolve_style({"big.gp", at, {}}, dir.path.string()), Catch::Contains("over the limit"));
  if (::geteuid() == 0) {  // another user's file: only root can make one here
    std::ofstream(dir.path / "theirs.gp") << "set key box\n";
    REQUIRE(::chown((dir.path / "theirs.gp").c_str(), 65534, 65534) == 0);
    CHECK_THROWS_WITH(resolve_style({"theirs.gp", at, {}}, dir.path.string()), Catch::Contains("not trusted"));
  } else {
    WARN("another user's style file: not tried (a file of another owner needs root to make)");
  }
}

TEST_CASE("the report's figure_style is loaded before a figure's own style") {
  TempDir dir;
  std::ofstream(dir.path / "all.gp") << "set key box\n";
  std::ofstream(dir.path / "one.gp") << "set grid\n";
  sweep::spec::ReportSpec spec;
  spec.figure_styles.push_back({"all.gp", {}, {}});
  spec.figures.resize(2);
  spec.figures[1].styles.push_back({"one.gp", {}, {}});
  const auto styled = with_styles(spec, dir.path.string());
  REQUIRE(styled.figures[0].styles.size() == 1);
  CHECK(styled.figures[0].styles[0].path == (dir.path / "all.gp").string());
  CHECK(styled.figures[0].styles[0].text == "set key box\n");
  REQUIRE(styled.figures[1].styles.size() == 2);
  CHECK(styled.figures[1].styles[1].path == (dir.path / "one.gp").string());
  CHECK(styled.figures[1].styles[1].text == "set grid\n");
}

TEST_CASE("with no experiment directory a style file is found beside the file that names it (a --spec file)") {
  TempDir dir;
  std::ofstream(dir.path / "mine.gp") << "set key box\n";
  const sweep::SourceLocation at{(dir.path / "report.yaml").string(), 3, 5};
  CHECK(resolve_style({"mine.gp", at, {}}, "").path == (dir.path / "mine.gp").string());
}
