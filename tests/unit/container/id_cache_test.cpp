// The id cache's entries (pure) and which directories it refuses.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "container/id_cache.h"

using namespace sweep::container;

namespace {
const std::string kId = "sha256:" + std::string(64, 'a');
}

TEST_CASE("id cache: an entry reads back for its own key only") {
  const std::string text = cache_entry_text("file 1 2 3 4 5", kId);
  CHECK(text == "sweep-image-id cache format=1\nkey=file 1 2 3 4 5\nid=" + kId + "\n");
  CHECK(parse_cache_entry(text, "file 1 2 3 4 5") == kId);
  CHECK_FALSE(parse_cache_entry(text, "file 1 2 3 4 6"));
}

TEST_CASE("id cache: a damaged entry is no entry") {
  const std::string key = "k";
  for (const std::string& text : {std::string(""), std::string("garbage"),
                                 "sweep-image-id cache format=2\nkey=k\nid=" + kId + "\n",
                                 "sweep-image-id cache format=1\nkey=k\nid=" + kId,          // cut short
                                 std::string("sweep-image-id cache format=1\nkey=k\nid=sha256:abc\n"),
                                 "sweep-image-id cache format=1\nkey=k\nid=sha256:" + std::string(64, 'G') + "\n",
                                 "sweep-image-id cache format=1\nkey=k\nid=" + kId + "\nextra\n"}) {
    INFO(text);
    CHECK_FALSE(parse_cache_entry(text, key));
  }
}

TEST_CASE("id cache: the directory must be the user's own, private, and no symlink") {
  struct stat st {};
  st.st_mode = S_IFDIR | 0700;
  st.st_uid = 1000;
  CHECK(cache_dir_refusal(st, 1000).empty());
  st.st_mode = S_IFDIR | 0755;
  CHECK(cache_dir_refusal(st, 1000).empty());
  st.st_mode = S_IFDIR | 0770;
  CHECK(cache_dir_refusal(st, 1000) == "it is writable by its group");
  st.st_mode = S_IFDIR | 0707;
  CHECK(cache_dir_refusal(st, 1000) == "it is writable by everyone");
  st.st_mode = S_IFDIR | 0700;
  st.st_uid = 0;  // root's, for another user
  CHECK(cache_dir_refusal(st, 1000) == "it is owned by another user (uid 0)");
  st.st_uid = 1001;
  CHECK(cache_dir_refusal(st, 1000) == "it is owned by another user (uid 1001)");
  st.st_uid = 1000;
  st.st_mode = S_IFLNK | 0777;
  CHECK(cache_dir_refusal(st, 1000) == "it is a symbolic link");
  st.st_mode = S_IFREG | 0600;
  CHECK(cache_dir_refusal(st, 1000) == "it is not a directory");
}
