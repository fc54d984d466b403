#include "comm/rank_env.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace sweep::comm {
namespace {

// One row per source, in order of precedence. Empty names are not read.
struct Source {
  std::string_view name;
  std::string_view rank;
  std::string_view size;
  std::string_view size_fallback;
  std::string_view local_rank;
  std::string_view nodelist;
  std::string_view nodelist_fallback;
};

constexpr std::array<Source, 3> kSources{{
    {"torchrun", "RANK", "WORLD_SIZE", "", "LOCAL_RANK", "", ""},
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "", "OMPI_COMM_WORLD_LOCAL_RANK", "", ""},
    {"slurm", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_STEP_NODELIST",
     "SLURM_JOB_NODELIST"},
}};

std::optional<std::string> get(const EnvLookup& env, std::string_view name) {
  if (name.empty()) return std::nullopt;
  auto value = env(name);
  if (value && value->empty()) return std::nullopt;
  return value;
}

int to_int(std::string_view name, const std::string& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    throw std::runtime_error(std::string(name) + "=\"" + text + "\" is not an integer");
  return value;
}

int integer(const EnvLookup& env, std::string_view name, std::string_view fallback, int otherwise) {
  if (auto v = get(env, name)) return to_int(name, *v);
  if (auto v = get(env, fallback)) return to_int(fallback, *v);
  return otherwise;
}

}  // namespace

std::string first_host(std::string_view list) {
  const auto comma = list.find(',');
  const auto bracket = list.find('[');
  if (bracket == std::string_view::npos || (comma != std::string_view::npos && comma < bracket))
    return std::string(list.substr(0, comma));
  const auto end = list.find_first_of(",-]", bracket + 1);
  return std::string(list.substr(0, bracket)) + std::string(list.substr(bracket + 1, end - bracket - 1));
}

RankInfo discover_rank(const EnvLookup& env) {
  RankInfo info;
  info.source = "none";
  for (const auto& s : kSources) {
    if (!get(env, s.rank) || !(get(env, s.size) || get(env, s.size_fallback))) continue;
    info.source = std::string(s.name);
    info.rank = integer(env, s.rank, "", 0);
    info.world_size = integer(env, s.size, s.size_fallback, 1);
    info.local_rank = integer(env, s.local_rank, "", 0);
    if (auto list = get(env, s.nodelist)) info.master_addr = first_host(*list);
    else if (auto list2 = get(env, s.nodelist_fallback)) info.master_addr = first_host(*list2);
    break;
  }
  if (auto addr = get(env, "MASTER_ADDR")) info.master_addr = *addr;
  info.master_port = integer(env, "MASTER_PORT", "", 0);
  if (info.world_size < 1)
    throw std::runtime_error("world size " + std::to_string(info.world_size) + " (from " + info.source +
                             " variables) must be at least 1");
  if (info.rank < 0 || info.rank >= info.world_size)
    throw std::runtime_error("rank " + std::to_string(info.rank) + " (from " + info.source +
                             " variables) is outside [0, " + std::to_string(info.world_size) + ")");
  return info;
}

RankInfo discover_rank_from_environment() {
  return discover_rank([](std::string_view name) -> std::optional<std::string> {
    const char* v = std::getenv(std::string(name).c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  });
}

}  // namespace sweep::comm
