"""Dealing a new game (:func:`new_game`), and the bounds of what a deal is given: a seed, a hand
number, a variant built in Python.

Built on the states (``_state``) and the variants; the bots, simulations, environments,
records and positions that start games are built on it.
"""

from __future__ import annotations

import os
import secrets
from typing import TYPE_CHECKING, Any, Optional

from . import _core
from ._errors import ArgumentError, integer, show
from ._state import GameState, _check_seats

if TYPE_CHECKING:
    from ._variant import Variant


SEED_BITS = 64
"""A seed is an integer of at most this many bits (either sign)."""
MAX_HAND_NUMBER = 1_000_000
"""The largest hand number a loaded position or save may give (a game is never that long)."""


def check_seed(seed: object, argument: str = "seed") -> int:
    """``seed`` as an ``int`` (numpy integers included), or an :class:`ArgumentError`."""
    if seed is None:
        raise ArgumentError(argument, "expected an integer, not None")
    return integer(seed, argument, -(1 << SEED_BITS) + 1, (1 << SEED_BITS) - 1)



_CHECKED: dict[int, Any] = {}
"""Variant objects whose settings :func:`_check_built` has checked (by id, with the object)."""


def _check_built(variant: Variant) -> None:
    """A variant built in Python (``attrs.evolve`` of a loaded one, say) is checked as a file
    is: values out of bounds or contradicting each other raise :class:`VariantError`, before
    the engine could hang or fail on them. Once per variant object."""
    hit = _CHECKED.get(id(variant))
    if hit is not None and hit is variant:
        return
    from ._variant import VariantError
    from ._variant_checks import check_variant

    problems = check_variant(variant, f"variant {variant.name!r}")
    if problems:
        raise VariantError(problems)
    if len(_CHECKED) > 256:
        _CHECKED.clear()
    _CHECKED[id(variant)] = variant


def new_game(variant: Variant | str, players: Optional[int] = None, seed: Optional[int] = 0,
             dealer: Optional[int] = None, precise_draws: Optional[tuple[int, ...]] = None) -> GameState:
    """Deal the first hand of a new game.

    ``variant`` is a :class:`Variant` or a name/path for :func:`load_variant`; ``players``
    defaults to the variant's usual table (another count the variant does not allow raises
    a :class:`VariantError`, a ``ValueError``). The same seed gives the same game on any machine.

    ``seed`` is an integer (numpy integers included) of at most 64 bits, or None for fresh
    entropy: a random seed is drawn and kept as the state's ``seed``, so the game can still be
    saved, recorded and replayed. ``dealer`` is a seat (default: as the variant picks it).

    ``precise_draws`` (new-canasta's precise dealer draw): the dealers' seats who drew exactly
    the cards the deal needed and earn ``deal.precise_draw_bonus``; a table app records it here.
    When None, each dealer earns it with probability ``deal.precise_draw_probability``.

    An argument of the wrong type or out of range raises :class:`ArgumentError`.
    """
    from ._variant import Variant
    from ._variant_load import load_variant

    if isinstance(variant, (str, os.PathLike)):
        variant = load_variant(variant)
    elif not isinstance(variant, Variant):
        raise ArgumentError("variant", f"expected a Variant or a variant's name or path, not {show(variant)}")
    if players is None:
        players = variant.default_players
    players = integer(players, "players")
    if players.bit_length() > 63:  # (the variant's own message would print all its digits)
        from ._variant_terms import MAX_PLAYERS

        integer(players, "players", 1, MAX_PLAYERS)
    seed = secrets.randbits(SEED_BITS - 1) if seed is None else check_seed(seed)
    R = _core.find_rules(variant, players)
    if R is None:
        _check_built(variant)
        R = _core.rules_for(variant, players)
    if dealer is None:
        dealer = _core.first_dealer(R, seed)
    dealer = integer(dealer, "dealer", 0, players - 1)
    given = _check_seats(precise_draws, "precise_draws", players)
    try:
        return GameState(_core.deal(R, seed, 0, dealer, (0,) * R.n_sides, given))
    except ValueError as e:
        raise ArgumentError("precise_draws", str(e).removeprefix("precise_draws: ")) from None

