"""The native core's playouts (``simulate``, ``play``, greedy rollouts) play the draw, the
discard, melds, additions, the ask, the answer, the pass and done on the position itself
rather than on a copy (``apply_id_mut`` in ``native/src/apply.rs``). The rules are the same
either way: a hand played natively by the built-in bots ends in the very position the same
bots reach when every action is applied to a new position (``GameState.apply``), at every
table of every bundled variant (the usual table here, the others under ``slow``), and the
earlier positions of a playout are left as they were."""

from __future__ import annotations

import os

import pytest

import canasta
from canasta._core import _backend

if _backend._ext is None:
    if os.environ.get("CANASTA_REQUIRE_NATIVE") == "1":
        raise RuntimeError(f"CANASTA_REQUIRE_NATIVE=1 but the native core is not in use: {_backend._why_not}")
    pytest.skip(f"the native core is not in use ({_backend._why_not})", allow_module_level=True)

from canasta import RandomBot  # noqa: E402
from canasta._bots import _ask  # noqa: E402
from canasta._playout import RANDOM, bots, play  # noqa: E402


def _tables() -> list[tuple[str, int, bool]]:
    out = []
    for name in canasta.variant_names():
        v = canasta.load_variant(name)
        for players in sorted(int(p) for p in v.tables):
            out.append((name, players, players == v.default_players))
    return out


TABLES = [pytest.param(n, p, id=f"{n}-{p}", marks=() if usual else pytest.mark.slow) for n, p, usual in _tables()]


@pytest.mark.parametrize("name,players", TABLES)
def test_a_native_playout_ends_where_applying_each_action_ends(name: str, players: int) -> None:
    variant = canasta.load_variant(name)
    for seed in range(2):
        start = canasta.new_game(variant, players, seed=seed)
        before = start._c.key()
        seats = [RandomBot(seed * 1000 + s) for s in range(players)]
        st = start
        while not st.is_hand_over:
            st = st.apply(_ask(seats[st.current_player], st))
        end, count = play(start, bots([RANDOM] * players, [seed * 1000 + s for s in range(players)], range(players)),
                          20000)
        assert end._c.key() == st._c.key() and count == len(st.history), f"seed {seed}"
        assert end.history == st.history
        assert start._c.key() == before, "the playout changed the position it started from"


def test_a_playout_stopped_midway_leaves_its_start_unchanged() -> None:
    """A playout cut after a few actions (a rollout's depth) ends where the same actions applied
    one by one end, and its start is unchanged, so that a search may play from it again."""
    start = canasta.new_game("hoyle-1950", 4, seed=3)
    before = start._c.key()
    for depth in (1, 2, 5, 17):
        end, count = play(start, bots([RANDOM] * 4, [3000 + s for s in range(4)], range(4)), depth)
        assert count == depth
        st = start
        for a in end.history:
            st = st.apply(a)
        assert st._c.key() == end._c.key()
        assert start._c.key() == before
