// runners/protocol/backend_check_programs.hpp: the programs `concord backend-check`
// sends (backend_check.hpp), each in the JSON form of a request, marked with the
// version the backend claims.
#pragma once

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"

namespace concord::check_programs {

// Workers only (no supervisor: every backend can claim it): sends, spawns,
// SYSTEM_LIMIT, a failure, NO_HANDLER, arithmetic, if, repeat.
Program workers(int version);
// One process, nothing sent: what Backend::warm_up asks too.
Program trivial(int version);
// A version 2 program that uses every feature (oracle/features.hpp).
Program every_feature();
// `processes` declared processes and `given` given messages: large, but valid.
Program huge(int version, int processes, int given);
// Not a program in the JSON form (SPEC §13): a kind without "handlers".
ojson not_a_program(int version);

}  // namespace concord::check_programs
