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
string of space-separated tokens. Every key is optional except `variant`.

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
last turn began by taking the pile; default false). A seat that sits out this deal holds
no cards.

**`[[sides]]`**, one table per side: `melds`, a list with one string per meld in table order
(`"5 5 5 2"`; `"JK JK 2"` a meld of wild cards only, where the variant allows one;
`"3b 3b 3b"` black threes; `"K K K K K K K 3r"` a new-canasta natural canasta topped with a
red three); `red_threes`, the red threes the side has faced (default 0); `opened`, whether
the side has made its initial meld (default: true iff it has melds). Each meld must be a
valid meld of the variant: enough natural cards, not too many wild cards, one meld per
rank unless the variant allows more, and so on.

**`[turn]`** (optional; only when a seat is to act): what has happened in the current
turn, with the field names of `Turn`: `drew`, `took`, `count`, `pending` (pile cards set
aside during a take for the initial meld, bottom to top; they count as cards of the deck),
`pending_top` (a card; left out for none), `asked`, `answer` (left out for no answer yet),
`melded`, `black_threes`, `touched_partner`, `own_canasta`, `melds_before`,
`had_melded`, `no_take`, `start_hand` (cards), and any other field of `Turn` under its
own name (flags as true/false, counts as integers). The default is a fresh turn: every
field at its `Turn` default except `melds_before` (the acting side's number of melds) and
`had_melded` (the acting seat's `melded`).

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
from typing import Any, Optional

import attrs
import tomli_w


from ._cards import (
    _PARSE,
    _TOKENS,
    CARD_NAMES_PLURAL,
    N_KINDS,
    NATURAL_RANKS,
    WILD_RANK,
    cards_text,
    deck_mismatch,
    sequence_text,
)
from ._core import Rules, rules_for
from ._core import active_seats as _active_seats
from ._core import first_player as _first_player
from ._core import next_dealer as _next_dealer
from ._errors import ArgumentError, show
from ._playable import unplayable
from ._record import _num, _show
from ._rng import Rng
from ._state import MAX_HAND_NUMBER, SEED_BITS
from ._state import GameState, HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn, _from_fields, card_totals, meld_tuple
from ._variant import Variant, VariantError, load_variant, variant_from_dict, variant_names, variant_to_dict

__all__ = ["PositionError", "load_position", "to_position"]

JK, TWO, R3, B3 = 0, 1, 2, 3
_CARD_HELP = "use JK, 2, 3r, 3b, 4..10, J, Q, K, A"
_CLASS_KINDS = {"wild": (JK, TWO), "red_three": (R3,), "black_three": (B3,)}

_TOP_KEYS = ("variant", "players", "seed", "hand_number", "dealer", "totals", "to_act", "phase",
             "pile", "frozen", "stock", "last_turns", "winners", "precise_draws", "seats", "sides", "turn",
             "result")
_SEAT_KEYS = ("hand", "down", "melded", "took_last")
_SIDE_KEYS = ("melds", "red_threes", "opened")
_TURN_CARDS = ("pending", "pending_top", "start_hand")
_TURN_KEYS = tuple(a.name for a in attrs.fields(Turn))
_RESULT_KEYS = ("went_out", "concealed", "reason", "scores")
_PLAYING = (Phase.DRAW, Phase.ANSWER, Phase.INITIAL_TAKE, Phase.MELD, Phase.FINAL_MELD)
_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)


class PositionError(ValueError):
    """A position that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``"<path>: <problem>"``, e.g.
    ``seats.2.hand: card 'Z' is not a card: use JK, 2, 3r, 3b, 4..10, J, Q, K, A``.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


# =============================================================== small readers


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _check_keys(table: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in table:
        if key not in allowed:
            found = difflib.get_close_matches(key, allowed, n=1, cutoff=0.5)
            hint = f"did you mean {found[0]!r}?" if found else f"allowed: {', '.join(allowed)}"
            where = "here" if path else "at the top level"
            raise PositionError(_join(path, key), f"unknown key {where}: {hint}")


def _int(table: dict[str, Any], key: str, path: str, default: Any, low: Optional[int] = None,
         high: Optional[int] = None) -> Any:
    if key not in table:
        return default
    value = table[key]
    at = _join(path, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(at, f"expected an integer, got {_show(value)}")
    if low is not None and value < low:
        raise PositionError(at, f"must be {low} or more, not {_num(value)}")
    if high is not None and value > high:
        raise PositionError(at, f"must be {high} or less, not {_num(value)}")
    return value


def _bool(table: dict[str, Any], key: str, path: str, default: Any) -> Any:
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, bool):
        raise PositionError(_join(path, key), f"expected true or false, got {_show(value)}")
    return value


def _str(table: dict[str, Any], key: str, path: str, default: Any) -> Any:
    if key not in table:
        return default
    value = table[key]
    if not isinstance(value, str):
        raise PositionError(_join(path, key), f"expected a string, got {_show(value)}")
    return value


def _list(table: dict[str, Any], key: str, path: str, what: str) -> Optional[list[Any]]:
    if key not in table:
        return None
    value = table[key]
    if not isinstance(value, list):
        raise PositionError(_join(path, key), f"expected a list of {what}, got {_show(value)}")
    return value


def _tables(table: dict[str, Any], key: str, path: str) -> Optional[list[dict[str, Any]]]:
    value = table.get(key)
    if value is None:
        return None
    at = _join(path, key)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise PositionError(at, f"expected [[{at}]] tables (an array of tables), got {_show(value)}")
    return value


def _card(token: str, path: str) -> int:
    card = _PARSE.get(token.lower())
    if card is not None:
        return int(card)
    hint = " ('rest' may only end the stock)" if token.lower() == "rest" else ""
    raise PositionError(path, f"card {token!r} is not a card: {_CARD_HELP}{hint}")


def _cards(text: str, path: str) -> list[int]:
    return [_card(tok, path) for tok in text.split()]


def _card_string(table: dict[str, Any], key: str, path: str) -> list[int]:
    text = _str(table, key, path, "")
    return _cards(text, _join(path, key))


def _counts(kinds: list[int]) -> tuple[int, ...]:
    c = [0] * N_KINDS
    for k in kinds:
        c[k] += 1
    return tuple(c)


def _seat_list(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats)


# =============================================================== the variant


_BUNDLED: dict[str, Variant] = {}
_NAMES: list[tuple[str, ...]] = []


def _names() -> tuple[str, ...]:
    if not _NAMES:
        _NAMES.append(variant_names())
    return _NAMES[0]


def _bundled(name: str) -> Variant:
    v = _BUNDLED.get(name)
    if v is None:
        v = _BUNDLED[name] = load_variant(name)
    return v


def _read_variant(doc: dict[str, Any]) -> Variant:
    if "variant" not in doc:
        raise PositionError("variant", "required: give a bundled variant name "
                            f"({', '.join(variant_names())}), a path to a variant file, "
                            "or a [variant] table")
    ref = doc["variant"]
    try:
        if isinstance(ref, dict):
            return variant_from_dict(ref, "[variant]")
        if not isinstance(ref, str):
            raise PositionError("variant", "expected a variant name, a path or a [variant] table, "
                                f"got {_show(ref)}")
        if ref in _names() and not os.path.isfile(ref):
            return _bundled(ref)
        return load_variant(ref)
    except VariantError as e:
        raise PositionError("variant", str(e)) from None


# =============================================================== melds


def _meld(text: Any, path: str, R: Rules) -> TableMeld:
    if not isinstance(text, str):
        raise PositionError(path, f"expected a meld as a string of cards such as \"5 5 5 2\", got {_show(text)}")
    kinds = _cards(text, path)
    vname = R.variant.name
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
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PositionError("", f"the position is not valid TOML: {e}") from None
    except RecursionError:
        raise PositionError("", "the position is not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as e:  # (an integer of more digits than Python converts)
        raise PositionError("", f"the position is not valid TOML: {e}") from None
    _check_keys(doc, _TOP_KEYS, "")
    variant = _read_variant(doc)
    vname = variant.name

    players = _int(doc, "players", "", variant.default_players, low=1)
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise PositionError("players", f"{vname} is played by {allowed} players, not {players}")
    R = rules_for(variant, players)
    table = f"a {players}-player {vname} table"
    n_sides = R.n_sides

    seed = _int(doc, "seed", "", 0, low=-(1 << SEED_BITS) + 1, high=(1 << SEED_BITS) - 1)
    hand_number = _int(doc, "hand_number", "", 0, low=0, high=MAX_HAND_NUMBER)
    active = _active_seats(R, hand_number)
    default_dealer = players - 1
    if R.score_keeper:
        default_dealer = _next_dealer(R, players - 2) if players > 1 else 0
    dealer = _int(doc, "dealer", "", default_dealer, low=0, high=players - 1)

    totals_raw = _list(doc, "totals", "", "integers (one per side)")
    if totals_raw is None:
        totals: tuple[int, ...] = (0,) * n_sides
    else:
        if len(totals_raw) != n_sides:
            raise PositionError("totals", f"give one total per side: {table} has {n_sides} sides, "
                                f"not {len(totals_raw)}")
        for i, t in enumerate(totals_raw):
            if isinstance(t, bool) or not isinstance(t, int):
                raise PositionError(f"totals.{i}", f"expected an integer, got {_show(t)}")
        totals = tuple(totals_raw)

    # ---- seats
    seats_raw = _tables(doc, "seats", "") or []
    if len(seats_raw) > players:
        raise PositionError("seats", f"{len(seats_raw)} seats given, but {table} has {players} seats")
    hands: list[tuple[int, ...]] = []
    downs: list[tuple[int, ...]] = []
    melded: list[bool] = []
    took_last: list[bool] = []
    for s in range(players):
        seat = seats_raw[s] if s < len(seats_raw) else {}
        path = f"seats.{s}"
        _check_keys(seat, _SEAT_KEYS, path)
        hand = _card_string(seat, "hand", path)
        down = _card_string(seat, "down", path)
        if down and not R.down_size:
            raise PositionError(f"{path}.down", f"{vname} deals no down hand")
        if s not in active and (hand or down):
            raise PositionError(path, f"seat {s} sits out hand {hand_number} (seats playing: "
                                f"{_seat_list(tuple(sorted(active)))}): it holds no cards")
        hands.append(_counts(hand))
        downs.append(_counts(down))
        melded.append(_bool(seat, "melded", path, False))
        took_last.append(_bool(seat, "took_last", path, False))

    # ---- sides
    sides_raw = _tables(doc, "sides", "") or []
    if len(sides_raw) > n_sides:
        who = "; ".join(f"side {i}: seats {_seat_list(R.members[i])}" for i in range(n_sides))
        raise PositionError("sides", f"{len(sides_raw)} sides given, but {table} has {n_sides} "
                            f"sides ({who})")
    melds: list[tuple[TableMeld, ...]] = []
    red_threes: list[int] = []
    opened: list[bool] = []
    for i in range(n_sides):
        side = sides_raw[i] if i < len(sides_raw) else {}
        path = f"sides.{i}"
        _check_keys(side, _SIDE_KEYS, path)
        raw = _list(side, "melds", path, "meld strings") or []
        ms = tuple(_meld(t, f"{path}.melds.{j}", R) for j, t in enumerate(raw))
        if not R.multi:
            seen: set[int] = set()
            for j, m in enumerate(ms):
                if m.rank in NATURAL_RANKS:
                    if m.rank in seen:
                        raise PositionError(f"{path}.melds.{j}", f"a second meld of {CARD_NAMES_PLURAL[m.rank]}: "
                                            f"{vname} allows one meld per rank")
                    seen.add(m.rank)
        melds.append(ms)
        red_threes.append(_int(side, "red_threes", path, 0, low=0))
        opened.append(_bool(side, "opened", path, bool(ms)))

    # ---- whose turn
    phase_raw = _str(doc, "phase", "", "draw")
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
        if "to_act" in doc:
            raise PositionError("to_act", f"the hand is over (phase {phase.value}): nobody acts; "
                                "omit to_act")
        to_act = None
    elif "to_act" in doc:
        to_act = _int(doc, "to_act", "", None)
        if to_act not in active:
            raise PositionError("to_act", f"{to_act} is not a seat playing this hand: the seats "
                                f"playing are {_seat_list(tuple(sorted(active)))}")
    elif phase is Phase.DRAW:
        to_act = _first_player(R, dealer, active)
    else:
        raise PositionError("to_act", f"phase {phase.value} needs the seat to act: give to_act")

    # ---- pile and stock
    pile = tuple(_card_string(doc, "pile", ""))
    stock_text = _str(doc, "stock", "", "rest")
    words = stock_text.split()
    rest = bool(words) and words[-1].lower() == "rest"
    if rest:
        words = words[:-1]
    stock_top_first = [_card(w, "stock") for w in words]
    freezing: set[int] = set()
    for cls in tuple(variant.pile.freeze_on_discard) + tuple(variant.upcard.freezes):
        freezing.update(_CLASS_KINDS[cls])
    frozen = _bool(doc, "frozen", "", any(k in freezing for k in pile))

    # ---- turn
    turn_raw = doc.get("turn")
    if turn_raw is not None and not isinstance(turn_raw, dict):
        raise PositionError("turn", f"expected a [turn] table, got {_show(turn_raw)}")
    if to_act is None:
        if turn_raw is not None:
            raise PositionError("turn", f"the hand is over (phase {phase.value}): nobody has a turn; "
                                "omit [turn]")
        turn = Turn()
    else:
        turn = _read_turn(turn_raw or {}, len(melds[R.side_of[to_act]]), melded[to_act])

    # ---- last round
    stock_empty = not stock_top_first and not rest
    if stock_empty and R.last_round:
        last_default = len(active) - 1
        last_turns = _int(doc, "last_turns", "", last_default, low=-1, high=len(active))
    else:
        last_turns = _int(doc, "last_turns", "", -1)
        if last_turns != -1:
            why = ("the stock still has cards" if R.last_round
                   else f"{vname} has no last round when the stock runs out")
            raise PositionError("last_turns", f"must be -1 (or left out): {why}")

    # ---- result and winners
    result = None
    if "result" in doc:
        if not over:
            raise PositionError("result", f"only a hand that is over has a result; phase is {phase.value}")
        result = _read_result(doc["result"], R)
    winners_raw = _list(doc, "winners", "", "sides")
    if phase is Phase.GAME_OVER:
        top = max(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == top)
        if winners_raw is not None:
            for j, w in enumerate(winners_raw):
                if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n_sides:
                    raise PositionError(f"winners.{j}", f"expected a side from 0 to {n_sides - 1}, "
                                        f"got {_show(w)}")
            winners = tuple(winners_raw)
    else:
        if winners_raw:
            raise PositionError("winners", f"only a game that is over has winners; phase is {phase.value}")
        winners = ()

    precise_raw = _list(doc, "precise_draws", "", "seats")
    precise: tuple[int, ...] = ()
    if precise_raw:
        for j, w in enumerate(precise_raw):
            if isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < players:
                raise PositionError(f"precise_draws.{j}", f"expected a seat from 0 to {players - 1}, got {_show(w)}")
        precise = tuple(sorted(set(precise_raw)))

    # ---- the cards add up to the deck
    have = card_totals(hands, downs, melds, red_threes, pile + tuple(stock_top_first) + turn.pending)
    deck = R.deck
    parts = deck_mismatch(have, deck, f"the {vname} deck for {players} players", "this position",
                          missing=not rest)
    if parts:
        if not rest and any(have[k] < deck[k] for k in range(N_KINDS)):
            parts[-1] += " (end the stock with \"rest\" to put every missing card in the stock)"
        raise PositionError("cards", "; ".join(parts))
    stock_list = list(stock_top_first)
    if rest:
        left: list[int] = []
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
        winners=winners, rules=R,
    )
    bad = unplayable(state)
    if bad is not None:
        kind, at, problem = bad
        raise PositionError(f"seats.{at}.hand" if kind == "red_three" else "to_act", problem)
    return state


def _read_turn(raw: dict[str, Any], melds_before: int, had_melded: bool) -> Turn:
    path = "turn"
    _check_keys(raw, _TURN_KEYS, path)
    kw: dict[str, Any] = {"melds_before": melds_before, "had_melded": had_melded}
    for a in attrs.fields(Turn):
        key = a.name
        if key not in raw or key in _TURN_CARDS:
            continue
        if key == "answer" or isinstance(a.default, bool):
            kw[key] = _bool(raw, key, path, None)
        elif isinstance(a.default, int):
            kw[key] = _int(raw, key, path, None, low=0)
        else:  # pragma: no cover - a new kind of Turn field needs a reader here
            raise PositionError(_join(path, key), "this field cannot be given in a position yet")
    if "pending" in raw:
        kw["pending"] = tuple(_card_string(raw, "pending", path))
    if "pending_top" in raw:
        top = _card_string(raw, "pending_top", path)
        if len(top) != 1:
            raise PositionError("turn.pending_top", f"expected one card, got {len(top)}")
        kw["pending_top"] = top[0]
    if "start_hand" in raw:
        start = _card_string(raw, "start_hand", path)
        kw["start_hand"] = _counts(start) if start else ()
    return Turn(**kw)


def _read_result(raw: Any, R: Rules) -> HandResult:
    path = "result"
    if not isinstance(raw, dict):
        raise PositionError(path, f"expected a [result] table, got {_show(raw)}")
    _check_keys(raw, _RESULT_KEYS, path)
    went_out = _int(raw, "went_out", path, None, low=0, high=R.players - 1)
    concealed = _bool(raw, "concealed", path, False)
    reason = _str(raw, "reason", path, "")
    scores = []
    for i, sc in enumerate(_tables(raw, "scores", path) or []):
        at = f"{path}.scores.{i}"
        _check_keys(sc, ("side", "items"), at)
        side = _int(sc, "side", at, i, low=0, high=R.n_sides - 1)
        if side != i:
            raise PositionError(f"{at}.side", f"the scores are listed one per side, in side order: "
                                f"result.scores.{i} is side {i}, not {side}")
        items = []
        for j, it in enumerate(_list(sc, "items", at, "{ name, count, points } tables") or []):
            ip = f"{at}.items.{j}"
            if not isinstance(it, dict):
                raise PositionError(ip, f"expected {{ name = ..., count = ..., points = ... }}, got {_show(it)}")
            _check_keys(it, ("name", "count", "points"), ip)
            for key in ("name", "count", "points"):
                if key not in it:
                    raise PositionError(_join(ip, key), "required")
            items.append(ScoreItem(_str(it, "name", ip, ""), _int(it, "count", ip, 0),
                                   _int(it, "points", ip, 0)))
        scores.append(HandScore(side, tuple(items)))
    return HandResult(went_out=went_out, concealed=concealed, scores=tuple(scores), reason=reason)


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
    v = state.variant
    lines: list[str] = []
    inline_variant = True
    if v.name in _names() and (v is _bundled(v.name) or v == _bundled(v.name)):
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
    lines.append(f"pile = {_value(sequence_text(state.pile))}  # bottom to top")
    freezing: set[int] = set()
    for cls in tuple(v.pile.freeze_on_discard) + tuple(v.upcard.freezes):
        freezing.update(_CLASS_KINDS[cls])
    if state.frozen != any(k in freezing for k in state.pile):
        lines.append(f"frozen = {_value(state.frozen)}")
    lines.append(f"stock = {_value(sequence_text(tuple(reversed(state.stock))))}  # top first")
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
                  f"hand = {_value(cards_text(state.hands[s]))}"]
        if any(state.down_hands[s]):
            lines.append(f"down = {_value(cards_text(state.down_hands[s]))}")
        if state.melded[s]:
            lines.append("melded = true")
        if state.took_last[s]:
            lines.append("took_last = true")

    for i in range(R.n_sides):
        ms = state.melds[i]
        mates = R.members[i]
        lines += ["", f"[[sides]]  # side {i}: seat{'s' if len(mates) > 1 else ''} {_seat_list(mates)}"]
        lines += _string_list("melds", [str(m) for m in ms])
        if state.red_threes[i]:
            lines.append(f"red_threes = {state.red_threes[i]}")
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
                value = sequence_text(value)
            elif key == "start_hand":
                value = cards_text(value) if value else ""
            elif key == "pending_top":
                value = _TOKENS[value]
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
