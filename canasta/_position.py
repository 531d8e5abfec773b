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
import tomllib
from typing import Any, Optional

import attrs
import tomli_w


from ._cards import (
    CODE_TOKENS,
    CARD_NAMES_PLURAL,
    Card,
    N_KINDS,
    deck_mismatch,
)
from ._core import FOOT, Rules, rules_for
from ._core import active_seats as _active_seats
from ._core import first_player as _first_player
from ._core import next_dealer as _next_dealer
from ._errors import ArgumentError, show
from ._playable import unplayable
from ._files.reading import _bounded, _show, _structure
from ._files.suited import _code_counts, _hand_text, _row_text, _suited_counts, _suited_mismatch
from ._files.table_checks import _melds_before_problem, _one_per_rank
from ._position_doc import (B3, JK, R3, TWO, PositionError, _cards, _meld, _PositionDoc, _read_result, _read_turn,
                            _read_variant, _SeatDoc, _SideDoc, _STYLE, _TurnDoc)
from ._rng import Rng
from ._newgame import MAX_HAND_NUMBER, SEED_BITS
from ._state import GameState, _from_fields
from ._fields import Phase, TableMeld, Turn, card_totals, meld_tuple
from ._variant_load import _bundled, variant_names, variant_to_dict

__all__ = ["PositionError", "load_position", "to_position"]

_CLASS_KINDS = {"wild": (JK, TWO), "red_three": (R3,), "black_three": (B3,)}

_TURN_KEYS = tuple(a.name for a in attrs.fields(Turn))
_PLAYING = (Phase.DRAW, Phase.ANSWER, Phase.INITIAL_TAKE, Phase.MELD, Phase.FINAL_MELD)
_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)


def _seat_list(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats)


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
