%% concord_splitmix: the scheduler's generator, SplitMix64 (SPEC §8.3). Erlang
%% integers are unbounded, so every step is masked back to 64 bits.
-module(concord_splitmix).
-export([next/1]).

-define(MASK, 16#FFFFFFFFFFFFFFFF).

-ifdef('FAULT_SPLITMIX_STATE_UNMASKED').
-define(STATE(S), (S)).  % planted fault: the state is not masked to 64 bits (draws go wrong past 2^64)
-else.
-define(STATE(S), ((S) band ?MASK)).
-endif.

%% {Draw, NewState}
next(State0) ->
    State = ?STATE(State0 + 16#9e3779b97f4a7c15),
    Z1 = ((State bxor (State bsr 30)) * 16#bf58476d1ce4e5b9) band ?MASK,
    Z2 = ((Z1 bxor (Z1 bsr 27)) * 16#94d049bb133111eb) band ?MASK,
    {Z2 bxor (Z2 bsr 31), State}.
