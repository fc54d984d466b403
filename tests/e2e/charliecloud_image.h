#pragma once
// The Charliecloud directory image that the container tests run their workloads in, built from this
// machine's own files by tests/support/make-charliecloud-image (no registry; docs/containers.md,
// "Charliecloud, tested here").
#include <string>
#include <vector>

namespace e2e {

/// The marker file only the image has (the script writes it): a workload that reads it ran inside.
inline constexpr const char* kCharliecloudMarker = "/etc/charliecloud-test-image";

/// The path of an image with busybox, Open MPI's runtime (--mpi), the libraries of the bundled collbench,
/// and a mount point for the bundled programs' directory and for each of `mounts` (ch-run binds only onto
/// directories the read-only image has). Built under a lock, once per build tree and set of mounts (its
/// name holds their hash), and again when the script or collbench is newer than it; a failed build fails
/// the test with the script's message.
std::string charliecloud_image(const std::vector<std::string>& mounts);

/// What `sweep-image-id` (the bundled program of docs/containers.md) prints for `image`, without its
/// newline; "" when the build has no such program.
std::string image_id_of(const std::string& image);

}  // namespace e2e
