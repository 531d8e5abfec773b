"""The meld phase's generator where cards carry suits (samba, bolivia, brazilian) offers exactly
the actions whose checks pass, in every kind of turn it shortcuts differently.

The generator checks a meld's rules once for all the suits that make it, and plans the turn's end
per set of suits only where the hand left matters (``_meldphase._finishable``): the side has not
made its initial meld, must go out (a "yes" binds: samba 5.2, brazilian 6.1, bolivia's
permission), or keeps fewer than two cards. These tests play seeded games whose players ask to go
out and answer yes, so that every such turn comes, and compare the generator with the check of
every id of the action space (``problem``, what ``why_illegal`` words) at every step of the meld
phase, and the native core's ids with the Python core's at every step (where it is built).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import canasta
from canasta._core import _backend, rules_for
from canasta._core._apply import apply_id
from canasta._core._deal import deal
from canasta._core._legal import legal_ids, problem
from canasta._core._kernel import F_MUST, PH_FINAL_MELD, PH_GAME_OVER, PH_HAND_OVER, PH_MELD, Core
from canasta._core._meldphase import _finishable
from canasta._core._rules import ADD, ANSWER, ASK, MELD, Rules

KINDS = ("must go out", "initial meld owed", "opened", "four cards or fewer")
SEEDS = {"samba": (0,), "bolivia": (0, 14), "brazilian": (22,)}
"""Seeded deals of each variant in which every kind of turn comes, and in which the generator's
ids change if any of its three conditions (a yes binding, the initial meld owed, the cards left)
is dropped (checked by hand, one condition at a time)."""


def eager(R: Rules, rng: random.Random, ids: list[int]) -> int:
    """Asks to go out and answers yes where it may (so that a yes binds the player to go out),
    melds often, else any legal action."""
    for kind in (ASK, ANSWER):
        got = [i for i in ids if R.specs[i][0] == kind and (kind == ASK or R.specs[i][1] == 1)]
        if got and rng.random() < 0.8:
            return got[0]
    melds = [i for i in ids if R.specs[i][0] in (MELD, ADD)]
    return rng.choice(melds) if melds and rng.random() < 0.6 else rng.choice(ids)


def may_hold(R: Rules, h: bytes, i: int) -> bool:
    """False for a meld or an addition of cards the hand ``h`` lacks (refused for that)."""
    sp = R.specs[i]
    if sp[0] == MELD:
        return all(h[k] >= sp[4].count(k) for k in sp[4])
    if sp[0] == ADD:
        return h[sp[1]] > 0
    return True


def turn_kind(c: Core) -> str:
    """Which way the generator checks this meld phase's candidates."""
    R = c.d.R
    side = R.side_of[c.player]
    free, _down, _enough = _finishable(c, c.player, side)
    if c.flags & F_MUST:
        return "must go out"
    if not free:
        return "initial meld owed"
    return "opened" if sum(c.hands[c.player][:15]) > 4 else "four cards or fewer"


@pytest.mark.parametrize("variant", ["samba", "bolivia", "brazilian"])
def test_suited_generator_offers_exactly_what_the_checks_allow(variant: str) -> None:
    R = rules_for(canasta.load_variant(variant), 4)
    seen: Counter[str] = Counter()
    for seed in SEEDS[variant]:
        rng = random.Random(seed)
        c = deal(R, seed, 0, R.players - 1, (0,) * R.n_sides)
        # the native core's twin, where it is built: the same ids in the same order at every step
        native = _backend._ext is not None and _backend.native_rules(R) is not None
        nat = _backend.deal(R, seed, 0, R.players - 1, (0,) * R.n_sides) if native else None
        while c.phase not in (PH_HAND_OVER, PH_GAME_OVER):
            ids = legal_ids(c)
            if nat is not None:
                assert tuple(nat.legal_ids()) == tuple(ids), (variant, seed, "the native core's ids differ")
            if c.phase in (PH_MELD, PH_FINAL_MELD):
                kind = turn_kind(c)
                seen[kind] += 1
                h = c.hands[c.player]
                # a meld or an addition of cards not held is refused for that (held_problem): the
                # rest of the space is checked id by id
                allowed = [i for i in range(R.size) if may_hold(R, h, i) and problem(c, R.specs[i]) is None]
                assert sorted(ids) == allowed, (variant, seed, kind, sorted(set(ids) ^ set(allowed)))
            a = eager(R, rng, ids)
            c = apply_id(c, a)
            if nat is not None:
                nat = nat.apply_legal(a)
    # every way the generator shortcuts came up (a test that cannot fail otherwise)
    assert all(seen[k] for k in KINDS), seen
