"""bench/c_programs.py: the programs of the c target's benchmark stands (ping, idle,
swarm, spinning processes), shared by c_bench.py and c_versus.py."""

# --- programs ---------------------------------------------------------------
# Processes are made at run time by spawners (a program of a million declared
# processes would not fit the 16 MiB input limit); names are looked up by id, so
# a pair spawned after n others is "declared last". A spawner makes up to 33,000
# processes per turn (the body weight bound, SPEC §4.8).
KINDS = """
kind P(peer: addr) { on ping() { send ping() to peer; } }
kind Idle() { on never() {} }
kind Ran() {
    state hits: int = 0;
    init { send hi() to self; }
    on hi() { hits = hits + 1; }
}
kind Spin() {
    state n: int = 0;
    init { send spin() to self; }
    on spin() { n = n + 1; send spin() to self; }
}
"""
SPAWNER = """
kind Spawner(quota: int) {{
    state made: int = 0;
    state a: addr = self;
    state b: addr = self;
    on go() {{
        repeat 33 {{ repeat 1000 {{ if made < quota {{ spawn {kind}(); made = made + 1; }} }} }}
        if made < quota {{ send go() to self; }} else {{ {after} }}
    }}
}}
"""
PAIR = "a = spawn P(@p-2); b = spawn P(@p-1); send ping() to a;"


def idle_program(n, after=""):
    """One spawner makes n idle processes (it is the only one ready), then `after`."""
    return KINDS + SPAWNER.format(kind="Idle", after=after) + f"process s = Spawner({n});\ngiven go() to @s;\n"


def ready_program(kind, n):
    """n processes that are ready from birth (their init sends to themselves). Each
    spawner makes its quota in one turn, so they need not win many draws against
    the processes already made."""
    spawners = max(1, -(-n // 33000))
    text = KINDS + SPAWNER.format(kind=kind, after="")
    for i in range(spawners):
        quota = n // spawners + (1 if i < n % spawners else 0)
        text += f"process s{i} = Spawner({quota});\ngiven go() to @s{i};\n"
    return text
