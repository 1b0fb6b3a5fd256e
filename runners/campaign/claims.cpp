// runners/campaign/claims.cpp: does any target claim a campaign's programs?
#include "claims.hpp"

#include <algorithm>

#include "generators/generate.hpp"

namespace concord {

std::string unclaimed_campaign(const CampaignConfig& cfg, uint64_t sample) {
  if (std::any_of(cfg.targets.begin(), cfg.targets.end(), [](const BackendSpec& s) { return s.supports.everything; }))
    return "";
  const gen::Profile& profile = gen::profile_named(cfg.profile);
  std::string first;  // what the first program uses beyond each target's claims
  uint64_t looked = 0, index = 0;
  for (uint64_t k = 0; k < sample; k++) {
    if (!campaign_case_at(k, cfg.cases, cfg.shard_index, cfg.shard_count, cfg.only_cases, index)) break;
    Program p = gen::generate_program(case_seed(cfg.seed, index), profile);
    looked++;
    for (const BackendSpec& s : cfg.targets) {
      std::vector<std::string> missing = unclaimed(s.supports, p);
      if (missing.empty()) return "";
      if (k == 0)
        first += "; " + s.name + " claims " + describe(s.supports) + ", and case " + std::to_string(index) + " uses " +
                 joined(missing);
    }
  }
  if (looked == 0) return "";
  return "profile " + cfg.profile + ": no chosen target claims any of its programs (the first " +
         std::to_string(looked) + " of this campaign looked at)" + first +
         ": choose a profile or targets that claim them (runners/PROTOCOL.md, \"What a backend claims\")";
}

}  // namespace concord
