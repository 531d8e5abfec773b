"""What loads, plays: the checks of loaded files that need the rules engine.

Positions and saves are checked card by card when they are read; this module adds the two
checks that need the rules engine: the player to act holds no red three where red threes are
faced at the start of a turn, and the player to act has a legal action (no dead end).

A variant file that is not bundled is played when it loads (:func:`play_problems`, registered
with ``_variant.add_file_check``): a few seeded random deals at every table, a dead end or a
failure of the engine reported as a problem of the table. The schema's own checks refuse the
settings that cannot work together; this is the net behind them.
"""

from __future__ import annotations

import random
from typing import Optional

from ._actions import Discard, Done
from ._cards import Card
from ._state import GameState, Phase, new_game
from ._variant import Problem, Variant, add_file_check

RED_THREE = int(Card.RED_THREE)


def unplayable(state: GameState) -> Optional[tuple[str, int, str]]:
    """Why play could not reach ``state`` or go on from it: ``("red_three", seat, message)`` or
    ``("no_action", seat, message)``; None when it can."""
    seat = state.current_player
    if seat is None:
        return None
    v = state.variant
    if (v.red_threes.handling != "keep" and state.phase is not Phase.ANSWER
            and state.hands[seat][RED_THREE]):
        return ("red_three", seat,
                f"seat {seat} is to act holding a red three, but red threes are faced at the start of "
                "a turn and replaced from the stock (hoyle-1950 rule 13): count it with the side's "
                "red threes instead")
    if not state.legal_action_ids():
        if state.phase is Phase.DRAW and not state.stock:
            why = ("the stock is exhausted and the pile cannot be taken, so the hand ends here "
                   "(hoyle-1950 rule 35)")
        elif state.phase is Phase.DRAW:
            why = f"no action is legal ({state.why_illegal('draw')})"
        else:
            hand = state.hands[seat]
            # a card code of the hand (with suits, a natural is named by its suited code)
            held = [k for k in range(len(hand)) if hand[k] and not (len(hand) > 15 and 4 <= k < 15)]
            probe = Discard(held[0]) if held else Done()
            why = f"no action is legal ({state.why_illegal(probe)})"
        return ("no_action", seat, f"seat {seat} is to act but play cannot go on: {why}")
    return None


# ---------------------------------------------------------------- what validates, plays


PLAY_DEALS = 3
"""Seeded random deals played at each table of a variant file when it is loaded."""
PLAY_ACTIONS = 300
"""Actions each of those deals plays at most (a hand is 100 to 600 actions of random play)."""

_PLAYED: dict[Variant, tuple[tuple[str, str], ...]] = {}


def play_problems(variant: Variant, label: str) -> list[Problem]:
    """Play :data:`PLAY_DEALS` short seeded random deals at every table ``variant`` allows;
    a dead end (a player to act without a legal action) or a failure of the engine is a
    problem naming the table (``tables.4``), the seed and the last actions before it.

    Deal ``s`` is ``new_game(variant, players, seed=s)`` played by a uniform random choice
    seeded with ``s``, for at most :data:`PLAY_ACTIONS` actions, so the result is the same on
    every run; it is remembered for the process (equal variants are played once).
    """
    found = _PLAYED.get(variant)
    if found is None:
        found = _PLAYED[variant] = tuple(_play(variant))
        if len(_PLAYED) > 64:
            _PLAYED.pop(next(iter(_PLAYED)))
    return [Problem(label, k, m) for k, m in found]


def _play(variant: Variant) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key in sorted(variant.tables, key=int):
        players = int(key)
        for seed in range(PLAY_DEALS):
            actions: list[str] = []
            try:
                rng = random.Random(seed)
                state = new_game(variant, players, seed=seed)
                for _ in range(PLAY_ACTIONS):
                    legal = state.legal_actions()
                    if not legal:
                        if not state.is_hand_over:
                            out.append((f"tables.{key}", f"cannot be played: in a random deal (seed {seed}), "
                                        f"after {len(actions)} actions{_last(actions)}, seat "
                                        f"{state.current_player} is to act ({state.phase.value}) with no "
                                        "legal action; change the settings that leave him stuck"))
                        break
                    action = rng.choice(legal)
                    state = state.apply(action)
                    actions.append(str(action))
            except Exception as e:  # noqa: BLE001 - any failure in play is reported, not raised
                out.append((f"tables.{key}", f"cannot be played: in a random deal (seed {seed}), after "
                            f"{len(actions)} actions{_last(actions)}, the engine fails: "
                            f"{type(e).__name__}: {str(e)[:200]}"))
            if out and out[-1][0] == f"tables.{key}":
                break  # one problem per table is enough
    return out


def _last(actions: list[str]) -> str:
    return f" (the last: {', '.join(actions[-3:])})" if actions else ""


add_file_check(play_problems)
