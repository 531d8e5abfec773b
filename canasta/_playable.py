"""Whether a loaded position is one play could reach and go on from.

Positions and saves are checked card by card when they are read; this module adds the two
checks that need the rules engine: the player to act holds no red three where red threes are
faced at the start of a turn, and the player to act has a legal action (no dead end).
"""

from __future__ import annotations

from typing import Optional

from ._actions import Discard, Done
from ._cards import Card
from ._state import GameState, Phase

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
