#pragma once
// The hardware key (docs/forecasts.md, "The hardware key"): the provenance keys whose values make two
// sides of a comparison different hardware. The default, the names a key may hold, and `--hardware-key
// KEY,KEY` read into one. The site file's `hardware_key:` is read by spec/load_site.cpp with these
// rules. Pure.
#include <string>
#include <string_view>
#include <vector>

namespace sweep::spec {

/// gpu.model, gpu.count (runner/gpu_facts.h) and cpu_model (runner/provenance.h).
const std::vector<std::string>& default_hardware_key();

/// Whether `name` can be a provenance key: [A-Za-z0-9_][A-Za-z0-9_.-]*, at most 128 characters
/// ("gpu.model", "env.NCCL_ALGO", "campaign.system").
bool is_provenance_key_name(std::string_view name);

/// "gpu.model,nccl.version" (--hardware-key, its items comma-separated and trimmed, repeats dropped) as
/// a key; Error(usage) naming `option` and the item for an empty list or an item that is no key name.
std::vector<std::string> parse_hardware_key(const std::vector<std::string>& items, std::string_view option);

/// The key in force: `given` (--hardware-key's items, read by parse_hardware_key) when not empty, else
/// `site` (the site file's) when not empty, else the default. Error(usage) as parse_hardware_key.
std::vector<std::string> hardware_key_in_force(const std::vector<std::string>& given, const std::vector<std::string>& site);

}  // namespace sweep::spec
