"""What loads, plays: the checks of loaded files that need the rules engine.

Positions and saves are checked card by card when they are read; this module adds the two
checks that need the rules engine: the player to act holds no red three where red threes are
faced at the start of a turn, and the player to act has a legal action (no dead end).

A variant file that is not bundled is played when it loads (:func:`play_problems`, registered
with ``_variant_load.add_file_check``): a few seeded random deals at every table, a dead end or a
failure of the engine reported as a problem of the table. The schema's own checks refuse the
settings that cannot work together; this is the net behind them.
"""

from __future__ import annotations

import random
from typing import Optional

from ._actions import Discard, Done
from ._cards import Card
from ._state import GameState
from ._fields import Phase
from ._newgame import new_game
from ._variant import Problem, Variant
from ._variant_load import add_file_check

RED_THREE = int(Card.RED_THREE)


def unplayable(state: GameState) -> Optional[tuple[str, int, str]]:
    """Why play could not reach ``state`` or go on from it, as ``(what, seat, message)``: ``what``
    is ``"hand"`` (the hand of ``seat``, the player to act or the one who asked), a turn fact
    (``"turn.drew"``: the turn's facts contradict the phase), or ``"no_action"`` (``seat`` is to act
    with no legal action); None when play can reach it and go on."""
    seat = state.current_player
    if seat is None:
        return None
    bad = _turn_problem(state, seat)
    if bad is not None:
        return bad
    v = state.variant
    # the player whose turn it is: in phase answer, the one who asked
    mover = _asker(state, seat) if state.phase is Phase.ANSWER else seat
    hand = state.hands[mover]
    if v.red_threes.handling != "keep" and hand[RED_THREE]:
        who = f"seat {mover} is to act" if mover == seat else f"seat {mover}, who asked, is in his turn"
        return ("hand", mover,
                f"{who} holding a red three, but red threes are faced at the start of a turn and replaced "
                "from the stock (hoyle-1950 rule 13): count it with the side's red threes instead")
    if not any(hand[:15]) and not any(state.down_hands[mover]) and state.phase is not Phase.FINAL_MELD:
        who = f"seat {mover} is to act" if mover == seat else f"seat {mover}, who asked, is in his turn"
        return ("hand", mover, f"{who} with no card: give his hand (a player whose hand is used up has "
                "gone out, or taken up his down hand)")
    if not state.legal_action_ids():
        if state.phase is Phase.DRAW and not state.stock:
            why = ("the stock is exhausted and the pile cannot be taken, so the hand ends here "
                   "(hoyle-1950 rule 35)")
        elif state.phase is Phase.DRAW:
            why = f"no action is legal ({state.why_illegal('draw')})"
        else:
            # a card code of the hand (with suits, a natural is named by its suited code)
            held = [k for k in range(len(hand)) if hand[k] and not (len(hand) > 15 and 4 <= k < 15)]
            probe = Discard(held[0]) if held else Done()
            why = f"no action is legal ({state.why_illegal(probe)})"
        return ("no_action", seat, f"seat {seat} is to act but play cannot go on: {why}")
    return None


def _asker(state: GameState, seat: int) -> int:
    """The seat who asked "may I go out?" of ``seat`` (the previous playing seat of his side)."""
    order = state.active
    side = state.side_of(seat)
    i = order.index(seat)
    for k in range(1, len(order)):
        s = order[(i - k) % len(order)]
        if state.side_of(s) == side:
            return s
    return seat


def _turn_problem(state: GameState, seat: int) -> Optional[tuple[str, int, str]]:
    """The turn's facts that contradict the phase, as ``unplayable`` answers them."""
    t = state.turn
    ph = state.phase
    where = f"in phase {ph.value}"
    if t.drew and t.took:
        return ("turn.took", seat, "a turn begins by drawing or by taking the pile, never both")
    if ph is Phase.ANSWER:
        if not state.variant.going_out.permission or _asker(state, seat) == seat:
            return ("phase", seat, f"seat {seat} has no partner who may ask him \"may I go out?\" in this "
                    "variant and table: nobody waits for his answer")
        if not t.asked:
            return ("turn.asked", seat, f"{where} a partner has asked \"may I go out?\": set asked = true "
                    "(or use another phase)")
        if t.answer is not None:
            return ("turn.answer", seat, f"{where} the question waits for its answer: leave answer out")
        if t.melded:
            return ("turn.melded", seat, "\"may I go out?\" is asked before melding, never after")
    elif t.answer is not None and not t.asked:
        return ("turn.asked", seat, "an answer follows the question \"may I go out?\": set asked = true")
    elif t.asked and t.answer is None:
        return ("turn.answer", seat, f"{where} the question \"may I go out?\" has its answer: give "
                "answer = true or false (phase answer waits for it)")
    if any(t.start_hand) and not t.took:
        return ("turn.start_hand", seat, "only a take of the pile keeps the hand before it (start_hand): "
                "leave it out, or set took = true")
    if ph is Phase.DRAW:
        for name in ("drew", "took", "melded", "black_threes", "must_out", "touched_partner", "own_canasta"):
            if getattr(t, name):
                return (f"turn.{name}", seat, f"{where} the player has not drawn yet: {name} must be false")
        if t.count or t.pending or t.pending_top >= 0:
            return ("turn.count" if t.count else "turn.pending", seat,
                    f"{where} nothing is melded or set aside yet: leave count and pending out")
    elif ph is Phase.INITIAL_TAKE:
        if not t.took or t.pending_top < 0:
            return ("turn.pending_top" if t.took else "turn.took", seat,
                    f"{where} the player is taking the pile: took = true, with the top card taken "
                    "(pending_top) and the pile set aside (pending)")
        if state.opened[state.side_of(seat)]:
            return ("phase", seat, f"{where} the side has not met its initial minimum yet, but it is opened")
        if state._rules.undo_take and not any(t.start_hand):
            return ("turn.start_hand", seat, f"{where} a take may be retracted (new-canasta): give the hand "
                    "before the take (start_hand), which the retract gives back")
    elif ph is Phase.MELD:
        if t.pending:
            return ("turn.pending", seat, f"{where} no pile is set aside (that is phase initial_take)")
        if not (t.drew or t.took) and (state.stock or state.variant.stock_exhausted.mode != "last_round"):
            return ("turn.drew", seat, f"{where} the player has drawn or taken the pile: set drew or took "
                    "(only a last round, the stock used up, skips the draw)")
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
            for old in list(_PLAYED)[:1]:
                _PLAYED.pop(old, None)  # (another thread may have dropped it already)
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
