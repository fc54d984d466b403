// store/filesystem.h: which filesystems get a rollback journal instead of WAL.
#include <catch2/catch.hpp>

#include "store/filesystem.h"

using sweep::store::network_filesystem_name;
using sweep::store::network_filesystem_of;

TEST_CASE("network filesystems by statfs magic, local ones are not") {
  CHECK(network_filesystem_name(0x6969) == "nfs");
  CHECK(network_filesystem_name(0x0BD00BD0) == "lustre");
  CHECK(network_filesystem_name(0x47504653) == "gpfs");
  CHECK(network_filesystem_name(0xFF534D42) == "cifs");
  CHECK(network_filesystem_name(0x65735546) == "fuse");
  CHECK(!network_filesystem_name(0xEF53));      // ext4
  CHECK(!network_filesystem_name(0x01021994));  // tmpfs
  CHECK(!network_filesystem_name(0x58465342));  // xfs
  // the build directory is on local disk; a file that does not exist yet is judged by its directory
  CHECK(!network_filesystem_of("/tmp/does-not-exist-yet.db"));
}
