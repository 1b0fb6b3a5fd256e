// runners/campaign/claims.hpp: before a campaign starts, is any of its programs
// claimed by a target (runners/protocol/supports.hpp)? A campaign whose profile
// makes only programs that no chosen target claims would compare nothing: bad
// input, said before anything runs.
#pragma once

#include <string>

#include "runners/campaign/campaign.hpp"

namespace concord {

// Looks at the campaign's first `sample` cases (of its shard; its chosen cases when
// it replays some): "" when some target claims one of them (or every target claims
// everything), else why none is claimed, naming each target and what the first
// program uses that it does not claim.
std::string unclaimed_campaign(const CampaignConfig& cfg, uint64_t sample = 64);

}  // namespace concord
