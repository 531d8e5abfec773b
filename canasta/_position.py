"""Positions: a whole game state as a short TOML document that is pleasant to write by hand.

Tests and users set up rule scenarios with positions; `to_position` writes any state as
one, and `load_position` reads one back into a `GameState` that plays on from there. Every
mistake is reported as a `PositionError` naming the key at fault, such as
`seats.2.hand: card 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A`.

A complete example (four players of the 1950 Hoyle laws, seat 0 to draw):

```toml
variant = "hoyle-1950"
players = 4
seed = 7
dealer = 3
totals = [1200, 850]
to_act = 0
phase = "draw"
pile = "5 8 K"               # bottom to top
stock = "7 Q rest"           # top first: the next card drawn is the 7

[[seats]]                    # seat 0 (side 0)
hand = "5 5 7 K K JK Q Q 9"

[[seats]]                    # seat 1 (side 1)
hand = "A 4 4 6 6 8 10 J J 2 3b"

[[seats]]                    # seat 2 (side 0)
hand = "9 9 9 10 3b 4"
melded = true

[[seats]]                    # seat 3 (side 1)
hand = "Q 7 7 6 5 4 4 3b 10 10 8"
melded = true

[[sides]]                    # side 0: seats 0 and 2
melds = ["A A A 2", "K K K K K JK 2"]
red_threes = 1

[[sides]]                    # side 1: seats 1 and 3
melds = ["6 6 6"]
```

**Cards** are the tokens of `Card`: `JK`, `2`, `3r` (red three), `3b` (black three),
`4` .. `10`, `J`, `Q`, `K`, `A` (case does not matter; `T` is also a ten), written as one
string of space-separated tokens. Every key is optional except `variant` (and, where a seat is
to act, his hand: a player whose hand is used up has gone out).

**Cards with suits.** In a variant with sequences (`melds.sequences`, as Samba) natural cards
carry their suits: hands, down hands, the pile, the stock, `turn.pending`, `turn.pending_top`
and `turn.start_hand` write each natural card with its suit letter (`c`, `d`, `h`, `s`:
`"Ah Ah Kc 5d 6d JK 2 3b"`; jokers, deuces and threes as above), and a natural without its
suit (`7`) is refused. A group meld is written as in every variant (`"Q Q Q JK"`: a group keeps
no suits; suits written on its naturals are dropped), a sequence by its cards
(`"5h 6h 7h"`, lowest first): natural cards of one suit in consecutive ranks, within the
variant's `melds.sequences` lowest and highest ranks and sizes. Each suited card may appear at
most as often as the deck holds it; `rest` fills the stock with the suited cards not shown,
less those in groups (chosen from `seed`).

**Top-level keys**

- `variant`: a bundled variant name (`"hoyle-1950"`), a path to a variant file (relative
  to the working directory), or a `[variant]` table with every setting as `variant_to_dict`
  gives it (`to_position` writes this for a variant that is not an unchanged bundled one).
- `players`: seats at the table; default the variant's `default_players`.
- `seed`: default 0. Orders the `rest` of the stock and deals the later hands of the game.
- `hand_number`: default 0 (the first hand). With five players it decides who sits out.
- `dealer`: default the seat `new_game` picks when the variant does not draw for it:
  `players - 1` (the seat right of seat 0); with a score keeper (new-canasta) seat 0.
- `totals`: cumulative totals per side, numbered as `state.side_of(seat)`; default zeros.
- `phase`: `draw` (default), `answer`, `initial_take`, `meld`, `final_meld`, `hand_over`
  or `game_over` (see `Phase`).
- `to_act`: the seat to act. In phase `draw` it defaults to the first player of this
  dealer's deal (the seat left of the dealer, skipping a seat that sits out; new-canasta
  also skips the score keeper); the other playing phases need it given; leave it out when
  the hand is over.
- `pile`: the discard pile, bottom to top; default empty.
- `pile_buried`: how many cards at the bottom of `pile` are still face down: the packet
  dealt under the upcard where the variant buries one (`upcard.buried`, Italian 2.3), until
  the pile is taken; default 0. It must leave a face-up card on top of the pile.
- `frozen`: whether the pile is frozen for everyone. Default: true exactly when the pile
  holds a card of a class listed in the variant's `pile.freeze_on_discard` or
  `upcard.freezes` (`wild` = JK and 2, `red_three`, `black_three`); for the bundled
  variants that is what the engine decides. The pile being frozen only for a side that has
  not made its initial meld (`pile.frozen_until_initial_meld`) is not part of this flag.
- `stock`: top first: the next card drawn is written first. The word `rest` (only as the
  last word) stands for every card of the deck not placed anywhere else, shuffled
  deterministically from `seed` and `hand_number`. Default `"rest"`.
- `last_turns`: (a variant whose stock runs out into a last round, new-canasta) the
  turns still to come after this one; -1 while the stock lasts. Default -1 when the stock
  has cards; with an empty stock, the number of seats playing minus 1 (this player and
  every other one have one last turn). Any other variant: always -1.
- `winners`: (phase `game_over`) the winning sides; default the sides with the highest
  total.
- `precise_draws`: (new-canasta) the dealers' seats credited with a precise dealer draw
  this hand; default none.

**`[[seats]]`**, one table per seat in seat order (missing seats have empty hands):
`hand` (the cards in hand), `down` (new-canasta: the down hand not yet picked up),
`melded` (this player has melded this hand; default false), `took_last` (this player's
last turn began by taking the pile; default false), `had_turn` (this player has finished a
turn this hand: kept only where the variant bars some discards in a player's first turn,
`pile.no_discard_first_turn`; default false), `playing_foot` (he plays from his down hand:
kept only where a partner must before a player goes out, `going_out.partner_down_hand`;
default: true exactly when his down hand is picked up). A seat that sits out this deal holds
no cards.

**`[[sides]]`**, one table per side: `melds`, a list with one string per meld in table order
(`"5 5 5 2"`; `"JK JK 2"` a meld of wild cards only, where the variant allows one;
`"3b 3b 3b"` black threes; `"K K K K K K K 3r"` a new-canasta natural canasta topped with a
red three); `red_threes`, the red threes the side has faced (default 0);
`black_threes_aside`, the black threes it has set aside from taken piles (cuban,
`black_threes.from_pile = "set_aside"`; default 0); `opened`, whether
the side has made its initial meld (default: true iff it has melds). Each meld must be a
valid meld of the variant: enough natural cards, not too many wild cards, one meld per
rank unless the variant allows more, and so on (a sequence, `"5h 6h 7h"`, where the variant has
them: see "Cards with suits").

**`[turn]`** (optional; only when a seat is to act): what has happened in the current
turn, with the field names of `Turn`: `drew`, `took`, `count`, `pending` (pile cards set
aside during a take for the initial meld, bottom to top; they count as cards of the deck),
`pending_top` (a card; left out for none), `asked`, `answer` (left out for no answer yet),
`melded`, `black_threes`, `touched_partner`, `own_canasta`, `melds_before`,
`had_melded`, `no_take`, `start_hand` (cards; `""` a hand of no cards), and any other field of `Turn` under its
own name (flags as true/false, counts as integers). The default is a fresh turn: every
field at its `Turn` default except `melds_before` (the acting side's number of melds) and
`had_melded` (the acting seat's `melded`). The turn must agree with the phase, as play leaves
it: in phase `draw` nothing is drawn, taken or melded yet; in `meld` the player drew or took
(not both); `initial_take` follows a take (`took`, `pending_top`); `answer` waits for the
answer to a question asked (`asked`, no `answer`); `start_hand` only after a take.

**`[result]`** (optional; only when the hand is over): `went_out` (a seat; left out when
nobody went out), `concealed`, `reason`, and `[[result.scores]]` tables, one per side in side
order, with `side` (its number) and
`items = [{ name = "natural canastas", count = 1, points = 500 }, ...]`. Nothing is
recomputed from it; without it the state's `result` is None.

The cards in hands, down hands, melds (a red-three topping included), faced red threes,
the pile, the stock and `turn.pending` must together be exactly the variant's deck for
this table; with `rest` they may fall short, and `rest` fills the stock.

Loading recomputes nothing and runs no rule: it builds exactly the state written (no red
three is faced, no turn begun, no score counted). `to_position` writes every key whose
value differs from its default, and always the full stock, so
`load_position(to_position(state)) == state` for every state the engine reaches, hands
and games that are over included (state equality ignores the action history).
"""

from __future__ import annotations

import difflib
import os
import tomllib
from typing import Annotated, Any, Optional

import attrs
import tomli_w


from ._cards import (
    _PARSE,
    _TOKENS,
    CODE_TOKENS,
    CARD_NAMES_PLURAL,
    Card,
    N_KINDS,
    NATURAL_RANKS,
    WILD_RANK,
    deck_mismatch,
)
from ._core import FOOT, Rules, rules_for
from ._core import active_seats as _active_seats
from ._core import first_player as _first_player
from ._core import next_dealer as _next_dealer
from ._errors import ArgumentError, show
from ._playable import unplayable
from ._files.reading import _bounded, _Expect, _Items, _show, _structure, _Style
from ._files.suited import (_code_counts, _code_list, _hand_text, _row_text, _suit_hint, _suited_counts, _suited_meld,
                            _suited_mismatch)
from ._files.table_checks import _melds_before_problem, _one_per_rank
from ._rng import Rng
from ._newgame import MAX_HAND_NUMBER, SEED_BITS
from ._state import GameState, _from_fields
from ._fields import HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn, _table_meld, card_totals, meld_tuple
from ._variant import Variant, VariantError
from ._variant_load import _bundled, load_variant, variant_from_dict, variant_names, variant_to_dict

__all__ = ["PositionError", "load_position", "to_position"]

JK, TWO, R3, B3 = 0, 1, 2, 3
_CARD_HELP = "use JK, 2, 3r, 3b, 4..10, J, Q, K, A"
_CLASS_KINDS = {"wild": (JK, TWO), "red_three": (R3,), "black_three": (B3,)}

_TURN_CARDS = ("pending", "pending_top", "start_hand")
_TURN_KEYS = tuple(a.name for a in attrs.fields(Turn))
_PLAYING = (Phase.DRAW, Phase.ANSWER, Phase.INITIAL_TAKE, Phase.MELD, Phase.FINAL_MELD)
_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)


class PositionError(ValueError):
    """A position that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``"<path>: <problem>"``, e.g.
    ``seats.2.hand: card 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A``.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        """The key at fault, such as ``seats.2.hand`` (empty for text that is not TOML)."""
        self.problem = problem
        """What is wrong with it."""
        super().__init__(f"{path}: {problem}" if path else problem)


# =============================================================== the document
#
# The shape of a position (which keys, of which types) is given by the attrs classes below and
# checked by structuring the parsed TOML into them with cattrs (see ``canasta._record``); every
# key may be left out but ``variant``. What depends on the variant and the table (the number of
# seats and sides, bounds, cards adding up to the deck, ...) is checked by load_position after.

_TABLES = "expected [[{at}]] tables (an array of tables), got {got}"
_STYLE = _Style(PositionError, lambda path: f"a [{path}] table", unknown_sep=": ", cutoff=0.5,
                required="required")


@attrs.frozen(kw_only=True)
class _SeatDoc:
    """One ``[[seats]]`` table."""

    hand: str = ""
    down: str = ""
    melded: bool = False
    took_last: bool = False
    had_turn: bool = False
    playing_foot: Optional[bool] = None


@attrs.frozen(kw_only=True)
class _SideDoc:
    """One ``[[sides]]`` table (``opened`` None: not given)."""

    melds: Annotated[tuple[Annotated[str, _Expect('a meld as a string of cards such as "5 5 5 2"')], ...],
                     _Items("meld strings")] = ()
    red_threes: int = 0
    black_threes_aside: int = 0
    opened: Optional[bool] = None


def _turn_doc_class() -> type:
    """``[turn]``: every field of :class:`Turn`, each optional (None: not given)."""
    fields: dict[str, Any] = {}
    for a in attrs.fields(Turn):
        if a.name in _TURN_CARDS:
            tp: Any = Optional[str]
        elif a.name == "answer" or isinstance(a.default, bool):
            tp = Optional[bool]
        elif isinstance(a.default, int):
            tp = Optional[int]
        else:  # pragma: no cover - a new kind of Turn field needs a reader in _read_turn
            tp = Any
        fields[a.name] = attrs.field(type=tp, default=None)
    return attrs.make_class("_TurnDoc", fields, frozen=True, kw_only=True)


_TurnDoc = _turn_doc_class()


@attrs.frozen(kw_only=True)
class _ItemDoc:
    """One item of a side's score: ``{ name = ..., count = ..., points = ... }``."""

    name: str
    count: int
    points: int


@attrs.frozen(kw_only=True)
class _ScoreDoc:
    """One ``[[result.scores]]`` table (``side`` None: not given)."""

    side: Optional[int] = None
    items: Annotated[tuple[Annotated[_ItemDoc, _Expect("{ name = ..., count = ..., points = ... }")], ...],
                     _Items("{ name, count, points } tables")] = ()


@attrs.frozen(kw_only=True)
class _ResultDoc:
    """``[result]``."""

    went_out: Optional[int] = None
    concealed: bool = False
    reason: str = ""
    scores: Annotated[tuple[_ScoreDoc, ...], _Items("", tables=_TABLES)] = ()


@attrs.frozen(kw_only=True)
class _PositionDoc:
    """A position document; None stands for a key not given (TOML has no null)."""

    variant: Any = None  # a name, a path or a [variant] table (checked by the variant loader)
    players: Optional[int] = None
    seed: int = 0
    hand_number: int = 0
    dealer: Optional[int] = None
    totals: Optional[Annotated[tuple[int, ...], _Items("integers (one per side)")]] = None
    to_act: Optional[int] = None
    phase: str = "draw"
    pile: str = ""
    pile_buried: int = 0
    frozen: Optional[bool] = None
    stock: str = "rest"
    last_turns: Optional[int] = None
    winners: Optional[Annotated[tuple[Any, ...], _Items("sides")]] = None
    precise_draws: Optional[Annotated[tuple[Any, ...], _Items("seats")]] = None
    seats: Annotated[tuple[_SeatDoc, ...], _Items("", tables=_TABLES)] = ()
    sides: Annotated[tuple[_SideDoc, ...], _Items("", tables=_TABLES)] = ()
    turn: Optional[_TurnDoc] = None  # type: ignore[valid-type]
    result: Optional[_ResultDoc] = None


def _card(token: str, path: str) -> int:
    card = _PARSE.get(token.lower())
    if card is not None:
        return int(card)
    hint = _REST_HINT if token.lower() == "rest" else _suit_hint(token)
    raise PositionError(path, f"card {token!r} is not a card: {_CARD_HELP}{hint}")


_REST_HINT = " ('rest' may only end the stock)"


def _cards(text: str, path: str, suited: bool = False) -> list[int]:
    """Card kinds, or (``suited``: a variant with sequences) card codes, naturals with suits."""
    if suited:
        return _code_list(text, path, PositionError, _REST_HINT)
    return [_card(tok, path) for tok in text.split()]


def _seat_list(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats)


# =============================================================== the variant


def _read_variant(ref: Any) -> Variant:
    if ref is None:
        raise PositionError("variant", "required: give a bundled variant name "
                            f"({', '.join(variant_names())}), a path to a variant file, "
                            "or a [variant] table")
    try:
        if isinstance(ref, dict):
            return variant_from_dict(ref, "[variant]")
        if not isinstance(ref, str):
            raise PositionError("variant", "expected a variant name, a path or a [variant] table, "
                                f"got {_show(ref)}")
        if ref in variant_names() and not os.path.isfile(ref):
            return _bundled(ref)  # read once per process (the variant module's cache)
        return load_variant(ref)
    except VariantError as e:
        raise PositionError("variant", str(e)) from None


# =============================================================== melds


def _meld(text: str, path: str, R: Rules) -> TableMeld:
    vname = R.variant.name
    if R.suited:
        got = _suited_meld(text, path, R, PositionError)
        if isinstance(got, tuple):
            return _table_meld(got)  # a sequence (samba 4.3, 4.4)
        kinds = got
    else:
        kinds = _cards(text, path)
    if not kinds:
        raise PositionError(path, "an empty meld: write its cards, such as \"5 5 5 2\"")
    naturals = [k for k in kinds if k >= B3]
    ranks = sorted(set(naturals))
    if len(ranks) > 1:
        shown = " and ".join(_TOKENS[r] for r in ranks)
        raise PositionError(path, f"{text!r} mixes {shown}: a meld holds cards of one rank (and wild cards)")
    jk = kinds.count(JK)
    tw = kinds.count(TWO)
    r3 = kinds.count(R3)
    if not naturals and not jk and not tw:
        raise PositionError(path, f"{text!r} is not a meld: red threes are never melded "
                            "(new-canasta puts one on a natural canasta: \"K K K K K K K 3r\")")
    rank = ranks[0] if ranks else WILD_RANK
    m = TableMeld(rank, len(naturals), jk, tw, r3 > 0)
    bad = f"{text!r} is not a valid meld in {vname}: "
    if r3 > 1:
        raise PositionError(path, bad + "a canasta is topped with one red three at most")
    if rank == WILD_RANK:
        if not R.wild_melds:
            raise PositionError(path, bad + "a meld of wild cards only is not allowed "
                                "(it needs natural cards)")
        if m.size < R.min_size:
            raise PositionError(path, bad + f"a meld needs at least {R.min_size} cards, this has {m.size}")
        if m.size > R.wild_meld_max:
            raise PositionError(path, bad + f"a meld of wild cards only holds at most {R.wild_meld_max} "
                                f"cards, this has {m.size}")
        if R.deuce and not R.valid((WILD_RANK, 0, jk, tw, 0)):
            raise PositionError(path, bad + _deuce_words(R))
    elif rank == B3:
        if R.b3_rule == "never":
            raise PositionError(path, bad + "black threes are never melded")
        if m.wilds:
            raise PositionError(path, bad + "black threes are melded without wild cards")
        if not R.b3_min <= m.naturals <= R.b3_max:
            raise PositionError(path, bad + f"a meld of black threes holds {R.b3_min} to {R.b3_max} "
                                f"cards, this has {m.naturals}")
    else:
        if m.naturals < R.min_nat:
            raise PositionError(path, bad + f"a meld needs at least {R.min_nat} natural cards, "
                                f"this has {m.naturals}")
        if m.size < R.min_size:
            raise PositionError(path, bad + f"a meld needs at least {R.min_size} cards, this has {m.size}")
        if R.closed and m.size > R.cs:
            raise PositionError(path, bad + f"a canasta is exactly {R.cs} cards and takes no more, "
                                f"this meld has {m.size}")
        if not R.valid(meld_tuple(m)):
            cap = R.wild_cap(m.naturals)
            more = (" (more only on a completed canasta)" if R.unlimited else "")
            raise PositionError(path, bad + f"too many wild cards: with {m.naturals} natural cards a "
                                f"meld holds at most {cap} wild cards{more}, this has {m.wilds}")
    if r3 and not (R.keep_r3 and R.r3_canasta and R.closed and rank in NATURAL_RANKS and m.wilds == 0
                   and m.size >= R.cs):
        raise PositionError(path, bad + "a red three tops only a natural canasta, in a variant that "
                            "keeps red threes and scores red-three canastas (new-canasta)")
    if not R.valid(meld_tuple(m)):  # pragma: no cover - every reason is reported above
        raise PositionError(path, bad + "the rules do not allow it")
    return m


# =============================================================== loading


def load_position(text: str) -> GameState:
    """The :class:`GameState` a position document describes (see the module docs).

    Raises :class:`PositionError` naming the key at fault; nothing is built until the whole
    position has been checked. Loading recomputes nothing: no red three is faced, no turn is
    begun, no score is counted.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"load_position takes the TOML text (a str), not {show(text)}")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PositionError("", f"the position is not valid TOML: {e}") from None
    except RecursionError:
        raise PositionError("", "the position is not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as e:  # (an integer of more digits than Python converts)
        raise PositionError("", f"the position is not valid TOML: {e}") from None
    doc: _PositionDoc = _structure(raw, _PositionDoc, _STYLE)
    variant = _read_variant(doc.variant)
    vname = variant.name

    players = variant.default_players if doc.players is None else _bounded(doc.players, "players", 1, None,
                                                                           PositionError)
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise PositionError("players", f"{vname} is played by {allowed} players, not {players}")
    R = rules_for(variant, players)
    suited = R.suited
    table = f"a {players}-player {vname} table"
    n_sides = R.n_sides

    seed = _bounded(doc.seed, "seed", -(1 << SEED_BITS) + 1, (1 << SEED_BITS) - 1, PositionError)
    hand_number = _bounded(doc.hand_number, "hand_number", 0, MAX_HAND_NUMBER, PositionError)
    active = _active_seats(R, hand_number)
    default_dealer = players - 1
    if R.score_keeper:
        default_dealer = _next_dealer(R, players - 2) if players > 1 else 0
    dealer = default_dealer if doc.dealer is None else _bounded(doc.dealer, "dealer", 0, players - 1,
                                                                PositionError)

    if doc.totals is None:
        totals: tuple[int, ...] = (0,) * n_sides
    else:
        if len(doc.totals) != n_sides:
            raise PositionError("totals", f"give one total per side: {table} has {n_sides} sides, "
                                f"not {len(doc.totals)}")
        totals = doc.totals

    # ---- seats
    if len(doc.seats) > players:
        raise PositionError("seats", f"{len(doc.seats)} seats given, but {table} has {players} seats")
    hands: list[tuple[int, ...]] = []
    downs: list[tuple[int, ...]] = []
    melded: list[bool] = []
    took_last: list[bool] = []
    had_turn: list[bool] = []
    playing_foot: list[Optional[bool]] = []
    for s in range(players):
        seat = doc.seats[s] if s < len(doc.seats) else _SeatDoc()
        path = f"seats.{s}"
        hand = _cards(seat.hand, f"{path}.hand", suited)
        down = _cards(seat.down, f"{path}.down", suited)
        if down and not R.down_size:
            raise PositionError(f"{path}.down", f"{vname} deals no down hand")
        if s not in active and (hand or down):
            raise PositionError(path, f"seat {s} sits out hand {hand_number + 1} (seats playing: "
                                f"{_seat_list(tuple(sorted(active)))}): it holds no cards")
        hands.append(_code_counts(hand, suited))
        downs.append(_code_counts(down, suited))
        melded.append(seat.melded)
        took_last.append(seat.took_last)
        had_turn.append(seat.had_turn)
        playing_foot.append(seat.playing_foot)

    # ---- sides
    if len(doc.sides) > n_sides:
        who = "; ".join(f"side {i}: seats {_seat_list(R.members[i])}" for i in range(n_sides))
        raise PositionError("sides", f"{len(doc.sides)} sides given, but {table} has {n_sides} "
                            f"sides ({who})")
    melds: list[tuple[TableMeld, ...]] = []
    red_threes: list[int] = []
    aside: list[int] = []
    opened: list[bool] = []
    for i in range(n_sides):
        side = doc.sides[i] if i < len(doc.sides) else _SideDoc()
        path = f"sides.{i}"
        ms = tuple(_meld(t, f"{path}.melds.{j}", R) for j, t in enumerate(side.melds))
        _one_per_rank(ms, R, lambda j: f"{path}.melds.{j}", PositionError)
        melds.append(ms)
        # (counts of the deck's threes: at most as many as it has)
        red_threes.append(_bounded(side.red_threes, f"{path}.red_threes", 0, R.deck[Card.RED_THREE], PositionError))
        aside.append(_bounded(side.black_threes_aside, f"{path}.black_threes_aside", 0, R.deck[Card.BLACK_THREE],
                              PositionError))
        if aside[-1] and not (R.b3_aside or R.b3_faced):
            raise PositionError(f"{path}.black_threes_aside", f"{vname} sets no black three aside "
                                "(its black_threes.from_pile is \"hand\" and its black threes are not faced)")
        opened.append(bool(ms) if side.opened is None else side.opened)

    # ---- whose turn
    phase_raw = doc.phase
    try:
        phase = Phase(phase_raw)
    except ValueError:
        names = [p.value for p in Phase]
        found = difflib.get_close_matches(phase_raw, names, n=1, cutoff=0.5)
        hint = f"did you mean {found[0]!r}? " if found else ""
        raise PositionError("phase", f"unknown phase {phase_raw!r}: {hint}use one of "
                            f"{', '.join(names)}") from None
    over = phase in _OVER
    to_act: Optional[int]
    if over:
        if doc.to_act is not None:
            raise PositionError("to_act", f"the hand is over (phase {phase.value}): nobody acts; "
                                "omit to_act")
        to_act = None
    elif doc.to_act is not None:
        to_act = doc.to_act
        if to_act not in active:
            raise PositionError("to_act", f"{to_act} is not a seat playing this hand: the seats "
                                f"playing are {_seat_list(tuple(sorted(active)))}")
    elif phase is Phase.DRAW:
        to_act = _first_player(R, dealer, active)
    else:
        raise PositionError("to_act", f"phase {phase.value} needs the seat to act: give to_act")

    # ---- pile and stock
    pile = tuple(_cards(doc.pile, "pile", suited))
    buried = _bounded(doc.pile_buried, "pile_buried", 0, None, PositionError)
    if buried and not R.buried:
        raise PositionError("pile_buried", f"{variant.name} buries no cards under the upcard (its upcard.buried "
                            "is \"none\"): leave pile_buried out")
    if buried and buried >= len(pile):
        raise PositionError("pile_buried", f"is {buried}, but the pile holds {len(pile)} cards and the top one "
                            f"(the upcard, or a discard on it) is face up: at most {max(0, len(pile) - 1)}")
    words = doc.stock.split()
    rest = bool(words) and words[-1].lower() == "rest"
    if rest:
        words = words[:-1]
    stock_top_first = _cards(" ".join(words), "stock", suited)
    freezing: set[int] = set()
    for cls in tuple(variant.pile.freeze_on_discard) + tuple(variant.upcard.freezes):
        freezing.update(_CLASS_KINDS[cls])
    # face-down cards under the upcard (Italian 2.3) freeze nothing: nobody sees them
    frozen = any(k in freezing for k in pile[buried:]) if doc.frozen is None else doc.frozen

    # ---- turn
    if to_act is None:
        if doc.turn is not None:
            raise PositionError("turn", f"the hand is over (phase {phase.value}): nobody has a turn; "
                                "omit [turn]")
        turn = Turn()
    else:
        laid = len(melds[R.side_of[to_act]])
        turn = _read_turn(doc.turn or _TurnDoc(), laid, melded[to_act], suited)
        if turn.melds_before > laid:
            raise PositionError("turn.melds_before", _melds_before_problem(turn.melds_before, R.side_of[to_act], laid))

    # ---- last round
    stock_empty = not stock_top_first and not rest
    if stock_empty and R.last_round:
        last_default = len(active) - 1
        last_turns = last_default if doc.last_turns is None else _bounded(doc.last_turns, "last_turns", -1,
                                                                          len(active), PositionError)
    else:
        last_turns = -1 if doc.last_turns is None else doc.last_turns
        if last_turns != -1:
            why = ("the stock still has cards" if R.last_round
                   else f"{vname} has no last round when the stock runs out")
            raise PositionError("last_turns", f"must be -1 (or left out): {why}")

    # ---- result and winners
    result = None
    if doc.result is not None:
        if not over:
            raise PositionError("result", f"only a hand that is over has a result; phase is {phase.value}")
        result = _read_result(doc.result, R)
    winners_raw = doc.winners
    if phase is Phase.GAME_OVER:
        top = max(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == top)
        if winners_raw is not None:
            for j, w in enumerate(winners_raw):
                if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n_sides:
                    raise PositionError(f"winners.{j}", f"expected a side from 0 to {n_sides - 1}, "
                                        f"got {_show(w)}")
                if w in winners_raw[:j]:
                    raise PositionError(f"winners.{j}", f"side {w} is listed twice: list each winning side once")
            winners = tuple(winners_raw)
    else:
        if winners_raw:
            raise PositionError("winners", f"only a game that is over has winners; phase is {phase.value}")
        winners = ()

    precise_raw = doc.precise_draws
    precise: tuple[int, ...] = ()
    if precise_raw:
        for j, w in enumerate(precise_raw):
            if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < players:
                raise PositionError(f"precise_draws.{j}", f"expected a seat from 0 to {players - 1}, got {_show(w)}")
        precise = tuple(sorted(set(precise_raw)))

    # ---- the cards add up to the deck
    loose = pile + tuple(stock_top_first) + turn.pending + (Card.BLACK_THREE,) * sum(aside)
    deck = R.deck
    deck_name = f"the {vname} deck for {players} players"
    if suited:
        have, per_code = _suited_counts(hands + downs, [[meld_tuple(m) for m in ms] for ms in melds], red_threes,
                                        loose)
        parts = _suited_mismatch(have, per_code, R, deck_name, "this position", missing=not rest)
    else:
        have = list(card_totals(hands, downs, melds, red_threes, loose))
        parts = deck_mismatch(have, deck, deck_name, "this position", missing=not rest)
    if parts:
        if not rest and any(have[k] < deck[k] for k in range(N_KINDS)):
            parts[-1] += " (end the stock with \"rest\" to put every missing card in the stock)"
        raise PositionError("cards", "; ".join(parts))
    stock_list = list(stock_top_first)
    if rest:
        left: list[int] = []
        if suited:
            left = _suited_rest(R, have, per_code, Rng(seed, f"hand{hand_number}:position-rest-suits"))
        else:
            for k in range(N_KINDS):
                left.extend([k] * (deck[k] - have[k]))
        Rng(seed, f"hand{hand_number}:position-rest").shuffle(left)
        stock_list += left
    stock = tuple(reversed(stock_list))  # the state keeps the top of the stock last

    state = _from_fields(
        variant=variant, players=players, seed=seed, hand_number=hand_number, dealer=dealer,
        totals=totals, hands=tuple(hands), down_hands=tuple(downs), melds=tuple(melds),
        red_threes=tuple(red_threes), opened=tuple(opened), melded=tuple(melded), stock=stock,
        pile=pile, frozen=frozen, current_player=to_act, phase=phase, turn=turn,
        took_last=tuple(took_last), last_turns=last_turns, active=active, precise=precise, result=result,
        winners=winners, rules=R, black_threes_aside=tuple(aside), turns_done=tuple(had_turn),
        playing_down=tuple(playing_foot), pile_buried=buried,
    )
    bad = unplayable(state)
    if bad is not None:
        kind, at, problem = bad
        raise PositionError(f"seats.{at}.hand" if kind == "hand" else "to_act" if kind == "no_action" else kind,
                            problem)
    return state


def _suited_rest(R: Rules, have: list[int], per_code: list[int], rng: Rng) -> list[int]:
    """The cards of a variant with sequences missing from a position, as card codes: of each
    natural rank, as many as are missing, chosen (by ``rng``) among the suited cards the
    position does not show; the rest of those are in the side's groups, which keep no suits."""
    deck, codes = R.deck, R.deck_codes
    left: list[int] = []
    for k in range(N_KINDS):
        if k < 4:
            left.extend([k] * (deck[k] - have[k]))
            continue
        spare = [c for c in range(4 * k - 1, 4 * k + 3) for _ in range(codes[c] - per_code[c])]
        rng.shuffle(spare)
        left.extend(sorted(spare[: deck[k] - have[k]]))
    return left


def _read_turn(raw: Any, melds_before: int, had_melded: bool, suited: bool = False) -> Turn:
    kw: dict[str, Any] = {"melds_before": melds_before, "had_melded": had_melded}
    for a in attrs.fields(Turn):
        key = a.name
        value = getattr(raw, key)
        if value is None or key in _TURN_CARDS:
            continue
        if key == "answer" or isinstance(a.default, bool):
            kw[key] = value
        elif isinstance(a.default, int):
            kw[key] = _bounded(value, f"turn.{key}", 0, None, PositionError)
        else:  # pragma: no cover - a new kind of Turn field needs a reader here
            raise PositionError(f"turn.{key}", "this field cannot be given in a position yet")
    if raw.pending is not None:
        kw["pending"] = tuple(_cards(raw.pending, "turn.pending", suited))
    if raw.pending_top is not None:
        top = _cards(raw.pending_top, "turn.pending_top", suited)
        if len(top) != 1:
            raise PositionError("turn.pending_top", f"expected one card, got {len(top)}")
        kw["pending_top"] = top[0]
    if raw.start_hand is not None:
        # "" is a hand of no cards (as to_position writes one), not the default (no hand kept)
        kw["start_hand"] = _code_counts(_cards(raw.start_hand, "turn.start_hand", suited), suited)
    return Turn(**kw)


def _read_result(raw: _ResultDoc, R: Rules) -> HandResult:
    went_out = None if raw.went_out is None else _bounded(raw.went_out, "result.went_out", 0, R.players - 1,
                                                          PositionError)
    scores = []
    for i, sc in enumerate(raw.scores):
        at = f"result.scores.{i}"
        side = i if sc.side is None else _bounded(sc.side, f"{at}.side", 0, R.n_sides - 1, PositionError)
        if side != i:
            raise PositionError(f"{at}.side", f"the scores are listed one per side, in side order: "
                                f"result.scores.{i} is side {i}, not {side}")
        items = tuple(ScoreItem(it.name, it.count, it.points) for it in sc.items)
        scores.append(HandScore(side, items))
    return HandResult(went_out=went_out, concealed=raw.concealed, scores=tuple(scores), reason=raw.reason)


# =============================================================== writing


def _value(v: Any) -> str:
    """A TOML value on one line (strings, integers, booleans and flat lists of them)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, str) and v.isascii() and v.isprintable() and '"' not in v and "\\" not in v:
        return f'"{v}"'
    return tomli_w.dumps({"x": v})[4:].rstrip("\n")


def _string_list(key: str, items: list[str]) -> list[str]:
    one = f"{key} = [{', '.join(_value(s) for s in items)}]"
    if len(one) <= 96:
        return [one]
    return [f"{key} = ["] + [f"    {_value(s)}," for s in items] + ["]"]


def to_position(state: GameState) -> str:
    """The position document of ``state`` (see the module docs).

    Everything that differs from its default is written, and the stock in full (top first,
    no ``rest``), so that ``load_position(to_position(state)) == state``.
    """
    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {show(state)}")
    R: Rules = state._rules
    suited = R.suited
    v = state.variant
    lines: list[str] = []
    inline_variant = True
    if v.name in variant_names() and (v is _bundled(v.name) or v == _bundled(v.name)):
        lines.append(f"variant = {_value(v.name)}")
        inline_variant = False
    lines.append(f"players = {state.players}")
    lines.append(f"seed = {state.seed}")
    lines.append(f"hand_number = {state.hand_number}")
    lines.append(f"dealer = {state.dealer}")
    lines.append(f"totals = {_value(list(state.totals))}")
    lines.append(f"phase = {_value(state.phase.value)}")
    if state.current_player is not None:
        lines.append(f"to_act = {state.current_player}")
    lines.append(f"pile = {_value(_row_text(state.pile))}  # bottom to top")
    buried = state._c.buried
    if buried:
        lines.append(f"pile_buried = {buried}  # the bottom {buried} face down")
    freezing: set[int] = set()
    for cls in tuple(v.pile.freeze_on_discard) + tuple(v.upcard.freezes):
        freezing.update(_CLASS_KINDS[cls])
    if state.frozen != any(k in freezing for k in state.pile[buried:]):
        lines.append(f"frozen = {_value(state.frozen)}")
    lines.append(f"stock = {_value(_row_text(reversed(state.stock)))}  # top first")
    last_default = len(state.active) - 1 if (not state.stock and R.last_round) else -1
    if state.last_turns != last_default:
        lines.append(f"last_turns = {state.last_turns}")
    if state.phase is Phase.GAME_OVER:
        top = max(state.totals)
        if state.winners != tuple(i for i, t in enumerate(state.totals) if t == top):
            lines.append(f"winners = {_value(list(state.winners))}")
    elif state.winners:  # pragma: no cover - the engine sets winners only when the game is over
        raise ValueError("winners are set although the game is not over")
    if state.precise:
        lines.append(f"precise_draws = {_value(list(state.precise))}")

    for s in range(state.players):
        note = "" if s in state.active else ", sits out this hand"
        lines += ["", f"[[seats]]  # seat {s} (side {R.side_of[s]}{note})",
                  f"hand = {_value(_hand_text(state.hands[s], suited))}"]
        if any(state.down_hands[s]):
            lines.append(f"down = {_value(_hand_text(state.down_hands[s], suited))}")
        if state.melded[s]:
            lines.append("melded = true")
        if state.took_last[s]:
            lines.append("took_last = true")
        if (state._c.turned >> s) & 1:
            lines.append("had_turn = true")
        if R.partner_down:
            playing = bool((state._c.turned >> (FOOT + s)) & 1)
            if playing != (not any(state.down_hands[s])):
                lines.append(f"playing_foot = {_value(playing)}")

    for i in range(R.n_sides):
        ms = state.melds[i]
        mates = R.members[i]
        lines += ["", f"[[sides]]  # side {i}: seat{'s' if len(mates) > 1 else ''} {_seat_list(mates)}"]
        lines += _string_list("melds", [str(m) for m in ms])  # a sequence by its cards: "5h 6h 7h"
        if state.red_threes[i]:
            lines.append(f"red_threes = {state.red_threes[i]}")
        if state._c.aside[i]:
            lines.append(f"black_threes_aside = {state._c.aside[i]}")
        if state.opened[i] != bool(ms):
            lines.append(f"opened = {_value(state.opened[i])}")

    if state.current_player is not None:
        seat = state.current_player
        default = Turn(melds_before=len(state.melds[R.side_of[seat]]), had_melded=state.melded[seat])
        turn_lines = []
        t = state.turn
        for key in _TURN_KEYS:
            value = getattr(t, key)
            if value == getattr(default, key):
                continue
            if key == "pending":
                value = _row_text(value)
            elif key == "start_hand":
                value = _hand_text(value, suited) if value else ""
            elif key == "pending_top":
                value = CODE_TOKENS[value]
            elif value is None:  # pragma: no cover - only answer may be None, and its default is None
                continue
            turn_lines.append(f"{key} = {_value(value)}")
        if turn_lines:
            lines += ["", "[turn]"] + turn_lines
    elif state.turn != Turn():  # pragma: no cover - the engine clears the turn when the hand ends
        raise ValueError("a turn record is set although nobody is to act")

    res = state.result
    if res is not None:
        lines += ["", "[result]"]
        if res.went_out is not None:
            lines.append(f"went_out = {res.went_out}")
        lines.append(f"concealed = {_value(res.concealed)}")
        lines.append(f"reason = {_value(res.reason)}")
        for sc in res.scores:
            lines += ["", "[[result.scores]]", f"side = {sc.side}", "items = ["]
            lines += [f"    {{ name = {_value(it.name)}, count = {it.count}, points = {it.points} }},"
                      for it in sc.items]
            lines.append("]")

    if inline_variant:
        lines += ["", tomli_w.dumps({"variant": variant_to_dict(v)}).rstrip("\n")]
    return "\n".join(lines) + "\n"


def _deuce_words(R: Any) -> str:
    """Why a meld of deuces (``melds.deuce_melds``, italian 4.3) is not valid."""
    return (f"a meld of deuces holds {R.min_size} to {R.cs} cards, at least {R.min_nat} deuces and at most "
            f"{R.max_wild} jokers")

