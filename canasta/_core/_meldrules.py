"""Italian Canasta's rules on where wild cards go (``initial_meld.no_wild``, ``melds.deuce_meld_exclusive``).

Sources: Rummy-Games, "Italian Canasta" (http://rummy-games.com/rules/italian-canasta.html):
"initial melds must be naturals"; deuces bound to the side's meld of deuces until it is a canasta
(with D. Parlett, *The Penguin Book of Card Games*, "Canasta family": any available deuce must go
to the wild meld under way until it is complete).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ._rules import WILD, Meld, Rules

if TYPE_CHECKING:
    from ._kernel import Core

NO_WILD_TEXT = ("no wild card goes into a meld in the turn of your side's initial meld: its melds are "
                "all natural")
DEUCE_EXCL_TEXT = ("while your side's meld of deuces is not a canasta, deuces go only onto it (jokers "
                   "may go elsewhere)")


def card_rule(c: Core, melds: tuple[Meld, ...], r: int, jk: int, tw: int) -> Optional[str]:
    """Why jokers ``jk`` and deuces ``tw`` may not go into a meld of rank ``r`` (``WILD``: the meld
    of deuces) now, or None: italian 4.5 (no wild card in the initial meld's turn, no meld of
    deuces either) and 4.4 (deuces go only onto the side's open meld of deuces)."""
    R = c.d.R
    if R.no_wild and (jk or tw) and not c.melds_before:
        return NO_WILD_TEXT
    if R.deuce_excl and tw and r != WILD and deuce_open(R, melds):
        return DEUCE_EXCL_TEXT
    return None


def deuce_open(R: Rules, melds: tuple[Meld, ...]) -> bool:
    """The side has a meld of deuces that is not yet a canasta (italian 4.4)."""
    for m in melds:
        if m[0] == WILD and m[1] + m[2] + m[3] < R.cs:
            return True
    return False
