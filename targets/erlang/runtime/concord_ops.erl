%% concord_ops: the operators of SPEC §5, exact on int64, for the erlang target's
%% emitted modules, which import them (-import(concord_ops, ...)): one module
%% compiled with the runtime instead of a prelude compiled again with every
%% program (it was about a quarter of a typical program's compile time).
%%
%% w/1 reduces modulo 2^64 into the signed range; only what can leave the range
%% goes through it (band, bor, bxor, bnot, bsr, rem of in-range operands stay in
%% range). Erlang's div and rem truncate toward zero as §5 says.
-module(concord_ops).
-export([add/2, sub/2, mul/2, dv/2, rm/2, shl/2, shr/2, band_/2, bor_/2, bxor_/2]).
-export([lt/2, le/2, gt/2, ge/2, eq/2, ne/2, neg/1, not_/1, bnot_/1, rep/3]).

w(X) -> ((X + 16#8000000000000000) band 16#FFFFFFFFFFFFFFFF) - 16#8000000000000000.
add(A, B) -> w(A + B).
sub(A, B) -> w(A - B).
mul(A, B) -> w(A * B).
dv(_, 0) -> throw({concord_exit, {fail, <<"DIV_ZERO">>}});
dv(A, B) -> w(A div B).  % MIN div -1 = 2^63 wraps to MIN
rm(_, 0) -> throw({concord_exit, {fail, <<"DIV_ZERO">>}});
rm(A, B) -> A rem B.
shl(A, B) -> w(A bsl (B band 63)).  % B band 63: the low 6 bits of the pattern, also for B < 0
shr(A, B) -> A bsr (B band 63).
band_(A, B) -> A band B.
bor_(A, B) -> A bor B.
bxor_(A, B) -> A bxor B.
lt(A, B) -> truth(A < B).
le(A, B) -> truth(A =< B).
gt(A, B) -> truth(A > B).
ge(A, B) -> truth(A >= B).
eq(A, B) -> truth(A =:= B).  % ints, or addrs (binaries)
ne(A, B) -> truth(A =/= B).
neg(A) -> w(-A).
not_(0) -> 1;
not_(_) -> 0.
bnot_(A) -> bnot A.
truth(true) -> 1;
truth(false) -> 0.
%% repeat N {Body}: Body is a fun from state to state.
rep(0, _, S) -> S;
rep(N, F, S) -> rep(N - 1, F, F(S)).
