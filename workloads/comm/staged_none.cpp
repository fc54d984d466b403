// staged.h in a build without the CUDA toolkit: there is no device to stage from.
#include <stdexcept>

#include "comm/device.h"
#include "comm/staged.h"

namespace sweep::comm {

std::unique_ptr<Communicator> staged_on_device(std::unique_ptr<Communicator>, int) {
  throw std::runtime_error("device buffers need a CUDA GPU, but " + cuda_devices().problem);
}

}  // namespace sweep::comm
