"""The melds and the turn of a table read from a file, checked against the variant's rules:
each meld one the variant allows, one meld per rank, a turn's ``melds_before`` within the
side's melds.

Built on the rules and the state's values; built upon by ``saves`` and positions
(``canasta._position``).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from .._cards import CARD_NAMES_PLURAL, NATURAL_RANKS, WILD_RANK
from .._core import Rules
from .._fields import TableMeld, meld_tuple

B3 = 3


def _meld_problem(R: Rules, m: TableMeld) -> Optional[str]:
    """Why ``m`` is not a valid meld of the variant, or None."""
    if m.rank == WILD_RANK:
        if not R.wild_melds:
            return "a meld of wild cards only is not allowed (it needs natural cards)"
        if m.size < R.min_size:
            return f"a meld needs at least {R.min_size} cards, this has {m.size}"
        if m.size > R.wild_meld_max:
            return f"a meld of wild cards only holds at most {R.wild_meld_max} cards, this has {m.size}"
        if R.deuce and not R.valid((WILD_RANK, 0, m.jokers, m.twos, 0)):
            # italian 4.3: deuces are the meld's naturals, jokers its wild cards
            return (f"a meld of deuces holds {R.min_size} to {R.cs} cards, at least {R.min_nat} deuces and at "
                    f"most {R.max_wild} jokers")
    elif m.rank == B3:
        if R.b3_rule == "never":
            return "black threes are never melded"
        if m.wilds:
            return "black threes are melded without wild cards"
        if not R.b3_min <= m.naturals <= R.b3_max:
            return f"a meld of black threes holds {R.b3_min} to {R.b3_max} cards, this has {m.naturals}"
    else:
        if m.naturals < R.min_nat:
            return f"a meld needs at least {R.min_nat} natural cards, this has {m.naturals}"
        if m.size < R.min_size:
            return f"a meld needs at least {R.min_size} cards, this has {m.size}"
        if R.closed and m.size > R.cs:
            return f"a canasta is exactly {R.cs} cards and takes no more, this meld has {m.size}"
        if not R.valid(meld_tuple(m)):
            more = " (more only on a completed canasta)" if R.unlimited else ""
            return (f"too many wild cards: with {m.naturals} natural cards a meld holds at most "
                    f"{R.wild_cap(m.naturals)} wild cards{more}, this has {m.wilds}")
    if m.red_three and not (R.keep_r3 and R.r3_canasta and m.rank in NATURAL_RANKS and m.wilds == 0
                            and R.is_canasta(meld_tuple(m))):
        return ("a red three tops only a natural canasta, in a variant that keeps red threes and "
                "scores red-three canastas (new-canasta)")
    if not R.valid(meld_tuple(m)):  # pragma: no cover - every reason is given above
        return "the rules do not allow it"
    return None


def _one_per_rank(melds: Sequence[TableMeld], R: Rules, path: Callable[[int], str],
                  error: Callable[[str, str], Exception]) -> None:
    """Refuse a side's second meld of a rank where the variant allows one: one meld per rank, or
    (``melds.new_after_canasta``) one that is not yet a closed canasta."""
    if R.multi:
        return
    seen: set[int] = set()
    for j, m in enumerate(melds):
        if m.rank in NATURAL_RANKS and R.blocks_new(meld_tuple(m)):
            if m.rank in seen:
                name = CARD_NAMES_PLURAL[m.rank]
                if R.new_after:
                    raise error(path(j), f"a second meld of {name} that is not a closed canasta: "
                                f"{R.variant.name} starts another meld of a rank only once the side's "
                                "earlier melds of it are closed canastas")
                raise error(path(j), f"a second meld of {name}: {R.variant.name} allows one meld per rank")
            seen.add(m.rank)


def _melds_before_problem(melds_before: int, side: int, laid: int) -> str:
    """Why ``turn.melds_before`` is refused: more melds than the acting side has (a retract
    takes back the melds laid after them, so they must exist)."""
    return (f"must be {laid} or less, not {melds_before}: it counts the melds side {side} had before this "
            f"turn, and it has {laid}")
