"""Helpers shared by the rules tests (``tests/test_rules_*.py``): positions written in the
position format, and one legality check that asks every query the library answers.

``legal`` is the only way a rules test asks whether an action is legal: it cross-checks
``is_legal`` (by value, id and notation), membership in ``legal_actions()``, ``why_illegal``
(None exactly for a legal action, words for an illegal one) and ``apply`` (which succeeds or
raises :class:`IllegalActionError` with the same words). "One source of rule truth: the check
that refuses an action also words the reason" (GUIDE): a core in which these disagree fails
every rules file, not only the one whose helper happened to ask the disagreeing query.

``tests/conftest.py`` puts this directory on ``sys.path``, so ``from helpers import ...`` works
under every import mode (CI runs ``--import-mode=importlib``).
"""

from __future__ import annotations

import random
import textwrap
from typing import Callable, Mapping, Optional, Sequence

import pytest

from canasta import (Action, Add, Answer, Ask, Combine, GameState, GreedyBot, IllegalActionError, Meld, SuitedCard,
                     Take, Variant, parse_action)
from canasta._bots import _ask
from canasta._position import load_position

__all__ = ["AskerBot", "SEAT_KINDS", "held", "legal", "pos", "rows", "run", "seat_policies", "takes", "texts", "turn"]


def pos(body: str, variant: Optional[str] = None, players: Optional[int] = None) -> GameState:
    """A position from the TOML ``body`` (dedented); ``variant`` and ``players`` lines are
    added in front when given."""
    head = f'variant = "{variant}"\n' if variant is not None else ""
    if players is not None:
        head += f"players = {players}\n"
    return load_position(head + textwrap.dedent(body))


def legal(st: GameState, text: str) -> bool:
    """Whether the action ``text`` (notation) is legal in ``st``, asked through every query,
    which must agree: ``is_legal`` by value, by id and by notation; membership in
    ``legal_actions()`` and in ``legal_action_ids()``; ``why_illegal`` (None exactly when
    legal, else a reason in words, the same for the value, the id and the notation); and
    ``apply``, which succeeds on a legal action and otherwise raises
    :class:`IllegalActionError` with that reason, leaving the state as it was."""
    a: Action = parse_action(text)
    ok = st.is_legal(a)
    why = st.why_illegal(a)
    assert st.is_legal(text) == ok and st.why_illegal(text) == why, (text, "a query by notation differs")
    assert (a in st.legal_actions()) == ok, (text, ok, "membership in legal_actions() differs from is_legal")
    assert (why is None) == ok, (text, ok, why, "why_illegal differs from is_legal")
    if a in st.action_space.actions:  # (an action the variant has no id for is never legal)
        i = st.action_space.encode(a)
        assert st.is_legal(i) == ok and st.why_illegal(i) == why, (text, "a query by id differs")
        assert (i in st.legal_action_ids()) == ok, (text, ok, "membership in legal_action_ids() differs")
    else:
        assert not ok, (text, "legal but not in the action space")
    if ok:
        st.apply(a)  # must not raise
    else:
        assert isinstance(why, str) and why, (text, why)
        before = st
        with pytest.raises(IllegalActionError) as err:
            st.apply(a)
        assert err.value.reason == why, (text, err.value.reason, why)
        assert st == before
    return ok


def texts(st: GameState) -> set[str]:
    """The legal actions as notation."""
    return {str(a) for a in st.legal_actions()}


def takes(st: GameState) -> set[str]:
    """The legal ways to take the pile, as notation."""
    return {str(a) for a in st.legal_actions() if isinstance(a, Take)}


def rows(st: GameState, side: int) -> dict[str, int]:
    """The points of each row of ``side``'s score for the hand just ended."""
    assert st.result is not None, "the hand is not over"
    return {item.name: item.points for item in st.result.scores[side].items}


def held(st: GameState, seat: int, token: str) -> int:
    """How many of the (suited) card ``token`` seat ``seat`` holds."""
    return st.hands[seat][int(SuitedCard.parse(token))]


def run(st: GameState, *notations: str) -> GameState:
    """Apply the actions in order (each must be legal)."""
    for n in notations:
        st = st.apply(n)
    return st


def turn(variant: str, hand: str, melds0: str = "", melds1: str = "", *, pile: str = "5 9",
         phase: str = "meld", totals: Optional[str] = None, red0: int = 0, red1: int = 0,
         black0: int = 0, black1: int = 0, opened0: bool = True,
         melded: Optional[Sequence[bool]] = None, others: Sequence[str] = ("4 5 6",) * 3,
         downs: Sequence[str] = ("", "", "", ""), stock: str = "rest",
         hand_number: Optional[int] = None, extra: str = "") -> GameState:
    """Four players in two partnerships: seat 0 to act holding ``hand`` (having drawn, in the
    meld phase, unless ``phase`` says ``draw``). ``melds0``/``melds1`` are the sides' melds as
    the inside of a TOML list (``'"K K K", "5h 6h 7h"'``); ``others`` the hands of seats 1 to
    3; ``downs`` the down hands (feet) of seats 0 to 3 ("": none, or picked up).

    ``melded`` says which seats have melded this hand; by default seat 0 when his side has
    melds (and ``opened0``), seat 1 when his side has. ``totals`` (a TOML list),
    ``hand_number``, ``black0``/``black1`` (black threes set aside) and the ``extra`` TOML
    lines are written only when given."""
    m0 = f"melds = [{melds0}]" if melds0 else ""
    m1 = f"melds = [{melds1}]" if melds1 else ""
    if melded is None:
        melded = (bool(melds0) and opened0, bool(melds1), False, False)
    seats = []
    for seat, hand_text in enumerate((hand, *others)):
        down = f'down = "{downs[seat]}"' if downs[seat] else ""
        seats.append(f"""
        [[seats]]
        hand = "{hand_text}"
        {down}
        melded = {str(bool(melded[seat])).lower()}""")
    sides = []
    for melds, red, black in ((m0, red0, black0), (m1, red1, black1)):
        aside = f"black_threes_aside = {black}" if black else ""
        sides.append(f"""
        [[sides]]
        {melds}
        red_threes = {red}
        {aside}""")
    head = [f"totals = {totals}" if totals is not None else "",
            f"hand_number = {hand_number}" if hand_number is not None else ""]
    drew = "\n[turn]\ndrew = true" if phase == "meld" else ""
    body = "\n".join(line.strip() for line in (
        *head, f'phase = "{phase}"', "to_act = 0", f'pile = "{pile}"', f'stock = "{stock}"', extra,
        *"".join(seats).splitlines(), *"".join(sides).splitlines())) + drew
    return pos(body, variant)


# ---------------------------------------------------------------- purposeful seats (issue 28)

Policy = Callable[[GameState, Mapping[Action, GameState]], Action]
"""A seat's choice given the state and its legal actions, each with the state after it."""
SEAT_KINDS = ("greedy", "mixed", "asker")
"""Purposeful seatings of a playout: every seat a :class:`GreedyBot`, each seat greedy, random or
an :class:`AskerBot` (drawn per playout), or every seat an asker."""
_PROGRESS = (Take, Meld, Add, Combine)


def _goes_out(state: GameState, nxt: GameState) -> bool:
    return nxt.is_hand_over and nxt.result is not None and nxt.result.went_out == state.current_player


class AskerBot:
    """A seat that commits to going out whenever the rules let it (issue 28): it goes out
    whenever an action does, asks "may I go out?" whenever it may, answers its partner yes
    (binding him to go out, hoyle rule 39), and otherwise takes and melds with probability
    ``bias``; once bound to go out (a yes, black threes melded, a pile taken to go out) it plays
    any legal action at random, so that every action offered to a player committed to going out
    is tried, and each must leave him a way out. Random play rarely asks."""

    def __init__(self, seed: int, bias: float = 0.9) -> None:
        self.rng = random.Random(seed)
        self.bias = bias

    def choose(self, state: GameState, after: Mapping[Action, GameState]) -> Action:
        """The asker's action among the keys of ``after`` (the states they lead to)."""
        acts = list(after)
        for a in acts:
            if isinstance(a, Ask) or (isinstance(a, Answer) and a.yes) or _goes_out(state, after[a]):
                return a
        t = state.turn
        if t.answer or t.black_threes or t.must_out:
            return self.rng.choice(acts)
        progress = [a for a in acts if isinstance(a, _PROGRESS)]
        if progress and self.rng.random() < self.bias:
            return self.rng.choice(progress)
        return self.rng.choice(acts)


def seat_policies(kind: str, players: int, seed: int, variant: Optional[Variant] = None) -> list[Policy]:
    """The seats of a playout of ``kind`` (one of :data:`SEAT_KINDS`), seeded by ``seed``: greedy
    seats (:class:`GreedyBot`), askers, and for ``mixed`` each seat greedy, random or an asker.
    ``variant``: the variant played, for the greedy bots, where it is not a bundled one (a
    greedy bot otherwise takes the variant of that name compiled first in the process)."""
    rng = random.Random(seed)

    def greedy(seat: int) -> Policy:
        bot = GreedyBot(seed * 1000 + seat, variant=variant)
        return lambda state, after: _ask(bot, state)

    def uniform(state: GameState, after: Mapping[Action, GameState]) -> Action:
        return rng.choice(list(after))

    out: list[Policy] = []
    for seat in range(players):
        pick = kind if kind != "mixed" else rng.choice(("greedy", "random", "asker"))
        if pick == "greedy":
            out.append(greedy(seat))
        elif pick == "asker":
            out.append(AskerBot(seed * 1000 + seat).choose)
        elif pick == "random":
            out.append(uniform)
        else:
            raise ValueError(f"unknown seat kind {kind!r}: expected one of {SEAT_KINDS}")
    return out
