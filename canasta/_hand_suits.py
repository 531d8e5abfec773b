"""Actions that name natural cards without their suits, in a variant with suits: the cards
such an action takes from the hand, and the same action with the suits of the hand's cards
(for the rule that refuses it to be worded, :meth:`GameState.why_illegal`).

Built on the actions and the cards; the states (``_state``) are built on it.
"""

from __future__ import annotations

from typing import Any, Optional

from ._actions import Action
from ._cards import N_KINDS, card_code


def _hand_cards(action: Action) -> list[int]:
    """The cards ``action`` takes from the hand (card kinds or codes)."""
    from ._actions import Add, Discard, Meld, Take, TakeWay

    if isinstance(action, Meld):
        return list(action.cards)
    if isinstance(action, Take):
        if action.cards:
            return list(action.cards)
        wild = {TakeWay.JOKER: [0], TakeWay.TWO: [1]}.get(action.way)
        return [] if action.way is TakeWay.ONTO else [action.rank] + (wild if wild is not None else [action.rank])
    if isinstance(action, (Add, Discard)):
        return [action.card]
    return []


def _with_suits_from_hand(action: Action, hand: Any) -> Optional[Action]:
    """``action`` (natural cards named without suits) with the suits of cards in ``hand`` (59
    counts; the first held suit, clubs where none is), or None where it cannot be written so:
    the action the player would have had to type, for the rule that refuses it to be worded."""
    from ._actions import Add, Discard, Meld, Take, TakeWay

    left = list(hand) if len(hand) > N_KINDS else []

    def code(kind: int) -> int:
        if not 4 <= kind < N_KINDS:
            return kind
        for s in range(4):
            c = card_code(kind, s)
            if c < len(left) and left[c] > 0:
                left[c] -= 1
                return c
        return card_code(kind, 0)

    try:
        if isinstance(action, Meld):
            return Meld([code(c) for c in action.cards])
        if isinstance(action, Take):
            other = {TakeWay.JOKER: 0, TakeWay.TWO: 1}.get(action.way)
            first = code(action.rank)
            return Take(action.rank, action.way, 1, (first, code(action.rank) if other is None else other))
        if isinstance(action, Add):
            return Add(code(action.card), action.rank, action.meld)
        if isinstance(action, Discard):
            return Discard(code(action.card))
    except ValueError:
        return None
    return None
