%% concord_ready: the ready set of the scheduler (SPEC §8.2 step 2): the ids of
%% alive processes with a non-empty mailbox, in ascending order, with the k-th
%% member found in O(log n). A Fenwick tree of 0/1 counts over ids, kept in an
%% `atomics` array (mutable, so a delivery does not copy a tree); it doubles in
%% size when an id outgrows it.
-module(concord_ready).
-export([new/0, add/2, remove/2, member/2, size/1, nth/2]).

-record(ready, {tree, bits, cap, top, count = 0}).  % top: the highest power of two =< cap

new() -> make(16).

make(Cap) ->
    #ready{tree = atomics:new(Cap, [{signed, true}]), bits = atomics:new(Cap, [{signed, false}]), cap = Cap,
           top = top_bit(Cap)}.

size(#ready{count = N}) -> N.

member(#ready{cap = Cap}, Id) when Id >= Cap -> false;
member(#ready{bits = B}, Id) -> atomics:get(B, Id + 1) =:= 1.

add(R = #ready{cap = Cap}, Id) when Id >= Cap -> add(grow(R, Id), Id);
add(R = #ready{bits = B, count = N}, Id) ->
    case atomics:get(B, Id + 1) of
        1 -> R;
        0 ->
            atomics:put(B, Id + 1, 1),
            bump(R#ready.tree, R#ready.cap, Id + 1, 1),
            R#ready{count = N + 1}
    end.

remove(#ready{cap = Cap} = R, Id) when Id >= Cap -> R;
remove(R = #ready{bits = B, count = N}, Id) ->
    case atomics:get(B, Id + 1) of
        0 -> R;
        1 ->
            atomics:put(B, Id + 1, 0),
            bump(R#ready.tree, R#ready.cap, Id + 1, -1),
            R#ready{count = N - 1}
    end.

%% The id of the K-th member (K from 0), 0 =< K < size.
nth(#ready{tree = T, cap = Cap, top = Top}, K) -> descend(T, Cap, Top, 0, K + 1).

descend(_T, _Cap, 0, Pos, _Left) -> Pos;  % Pos is 1-based index - 1 = the id
descend(T, Cap, Step, Pos, Left) when Pos + Step =< Cap ->
    case atomics:get(T, Pos + Step) of
        Count when Count < Left -> descend(T, Cap, Step bsr 1, Pos + Step, Left - Count);
        _ -> descend(T, Cap, Step bsr 1, Pos, Left)
    end;
descend(T, Cap, Step, Pos, Left) -> descend(T, Cap, Step bsr 1, Pos, Left).

bump(_T, Cap, I, _D) when I > Cap -> ok;
bump(T, Cap, I, D) ->
    atomics:add(T, I, D),
    bump(T, Cap, I + (I band -I), D).

top_bit(N) -> top_bit(N, 1).
top_bit(N, B) when B * 2 =< N -> top_bit(N, B * 2);
top_bit(_, B) -> B.

grow(R = #ready{cap = Cap}, Id) ->
    New = make(grow_to(Cap, Id)),
    lists:foldl(fun(I, Acc) -> add(Acc, I) end, New, [I || I <- lists:seq(0, Cap - 1), member(R, I)]).

-ifdef('FAULT_READY_TREE_STOPS_GROWING').
%% Planted fault: the tree is capped at 1,024 ids: growing to hold a larger one loops for ever.
grow_to(Cap, Id) when Id < Cap -> Cap;
grow_to(Cap, Id) -> grow_to(min(Cap * 2, 1024), Id).
-else.
grow_to(Cap, Id) when Id < Cap -> Cap;
grow_to(Cap, Id) -> grow_to(Cap * 2, Id).
-endif.
