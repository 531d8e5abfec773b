'''A game state saved in full as JSON (:func:`state_to_json`), and loaded back, every part of it
checked (:func:`state_from_json`, :class:`StateError`).

**The state save format (JSON)**

One JSON object; every key is required (but ``history_seats``) and no other key is allowed.
Card lists are strings of card tokens (``"K K 5 JK"``; ``JK``, ``2``, ``3r``, ``3b``, ``4``
.. ``10``, ``J``, ``Q``, ``K``, ``A``; ``""`` for none). In a variant with sequences
(``melds.sequences``, as Samba) every natural card outside a group meld is written with its suit
(``"Ks Kh 5c JK"``: hands highest card first, by suit spades, hearts, diamonds, clubs) and a
natural without its suit is refused. Seats and sides are numbered from 0. The keys, in the order written:

- ``format``: ``"canasta-state"``; ``version``: ``1``.
- ``players``, ``seed``, ``hand_number`` (from 0), ``dealer`` (a seat): integers.
- ``phase``: one of ``draw``, ``answer``, ``initial_take``, ``meld``, ``final_meld``,
  ``hand_over``, ``game_over`` (see :class:`Phase`).
- ``current_player``: the seat to act, a seat playing this hand; ``null`` exactly when the
  hand is over.
- ``totals``: cumulative totals, one integer per side.
- ``hands``, ``down_hands``: per seat, the cards held (down hands: new-canasta's foot).
  A seat sitting out this hand holds nothing.
- ``melds``: per side, a list of that side's melds in table order, each a string of its cards:
  naturals, then jokers, then deuces, then ``3r`` for a red three topping a canasta
  (new-canasta). ``"JK JK 2"`` is a meld of wild cards only. In a variant with sequences a
  group is written the same (it keeps no suits) and a sequence by its cards, lowest first
  (``"5h 6h 7h"``). Each must be a valid meld of the variant, and one per rank unless the
  variant allows more.
- ``red_threes`` (faced, per side; integers), ``opened`` (per side), ``melded`` and
  ``took_last`` (per seat): as the :class:`GameState` fields.
- ``black_threes_aside`` (optional; per side): black threes set aside from taken piles
  (cuban); ``had_turn`` (optional; per seat): who has finished a turn this hand, kept where
  the variant bars some discards in a first turn. Both are written only when not all zero.
- ``playing_foot`` (optional; per seat): who plays from his down hand, written where a
  partner must before a player goes out (``going_out.partner_down_hand``); without it, those
  whose down hand is picked up.
- ``stock`` and ``pile``: bottom to top, so the next card drawn is the *last* token of
  ``stock`` and the top of the pile the last of ``pile``.
- ``pile_buried`` (optional): how many cards at the bottom of ``pile`` are still face down,
  the packet dealt under the upcard (``upcard.buried``, Italian 2.3); written only when not 0,
  and it must leave a face-up card on top.
- ``frozen`` (true/false), ``last_turns`` (-1 while the stock lasts, else the turns left).
- ``active``: the seats playing this hand in turn order; it must be what the table gives
  for ``hand_number`` (with five at a hoyle table, one sits out in turn).
- ``precise``: (new-canasta) the dealers' seats credited with a precise dealer draw
  this hand, increasing; empty otherwise.
- ``turn``: every field of :class:`Turn`: flags as true/false, counts as integers (0 or
  more), ``answer`` true/false/``null``, ``pending`` a card string (bottom to top),
  ``pending_top`` a card token or ``null`` (none), ``start_hand`` a card string or ``null``
  (none). It must be the empty turn (every field at its default) when the hand is over.
- ``result``: ``null``, or (only when the hand is over) ``{"went_out": seat or null,
  "concealed": bool, "reason": str, "scores": [{"side": int, "items": [{"name": str,
  "count": int, "points": int}, ...]}, ...]}``, the scores one per side in side order
  (``scores[i]`` is side ``i``).
- ``winners``: the winning sides; empty unless the game is over.
- ``variant``: every setting, as ``variant_to_dict`` gives it (the whole variant is stored,
  so a save loads the same after a variant file changes).
- ``history``: the current hand's actions in notation, oldest first.
- ``history_seats`` (optional; saves before 0.2 lack it): the seat that played each action of
  ``history``, or ``null`` where not known. Observations of the loaded state show who played
  each action even when its history does not reach back to the deal.

Every card of the variant's deck for this table (``rules_for(variant, players).deck``) must
be in exactly one place: a hand or down hand, a meld (naturals at the meld's rank, its jokers
and deuces, a red three topping), the faced red threes, the stock, the pile or
``turn.pending``; in a variant with sequences, each suited card at most as often as the deck holds
it (the naturals of groups, which keep no suits, make up the rest). :func:`state_from_json` checks all of it, builds nothing until everything
has passed, and raises :class:`StateError` (``key.path: message``) for input that is not
JSON or is cut short, has an unknown, missing or repeated key or a value of the wrong type,
cards that do not add up to the deck (naming each kind and by how much), an impossible
phase, totals or per-seat lists of the wrong length, or a meld the variant does not allow.

Built on ``reading``, ``variant_ref``, ``suited``, ``table_checks`` and ``records``.
'''

from __future__ import annotations

import difflib
import json
from typing import Annotated, Any, Iterable, Optional

import attrs
from attrs import frozen

from .._actions import Action, ActionParseError, parse_action, space_of
from .._bundled import bundled_name, settings_hash
from .._cards import _PARSE, _TOKENS, CARD_NAMES_PLURAL, CODE_TOKENS, N_KINDS, WILD_RANK, deck_mismatch
from .._core import FOOT, Rules, rules_for
from .._core import active_seats as _active_seats
from .._errors import ArgumentError, show
from .._fields import HandResult, HandScore, Phase, ScoreItem, TableMeld, Turn, _table_meld, card_totals, meld_tuple
from .._newgame import MAX_HAND_NUMBER
from .._state import GameState, _from_fields, _history_seats
from .._variant_load import variant_to_dict
from .reading import _bad_constant, _bounded, _Duplicate, _Items, _no_duplicates, _show, _structure, _Style
from .records import _SEED_LIMIT, _check_state
from .suited import (_code_counts, _code_list, _hand_text, _row_text, _suit_hint, _suited_counts, _suited_meld,
                     _suited_mismatch)
from .table_checks import _meld_problem, _melds_before_problem, _one_per_rank
from .variant_ref import _read_variant_ref

JK, TWO, R3, B3 = 0, 1, 2, 3
_STATE_FORMAT = "canasta-state"
_STATE_VERSION = 1
_CARD_HELP = "use JK, 2, 3r, 3b, 4..10, J, Q, K, A"
_OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
_KIND = {t: i for i, t in enumerate(_TOKENS)}  # the canonical tokens, for speed


class StateError(ValueError):
    """A state save that cannot be loaded: ``path`` is the key at fault, ``problem`` what is wrong.

    ``str(error)`` is ``<path>: <problem>``, e.g. ``hands.2: 'Z' is not a card: use JK, 2, 3r,
    3b, 4..10, J, Q, K, A`` or ``cards: 1 seven too many: ...``; for text that is not JSON the
    path is empty and the message says where the text breaks off.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        """The key at fault, such as ``hands.2`` or ``turn.drew`` (empty for text that is not JSON)."""
        self.problem = problem
        """What is wrong with it."""
        super().__init__(f"{path}: {problem}" if path else problem)

    def __reduce__(self) -> tuple[Any, ...]:
        # (as ArgumentError's: the fields, not the message)
        return (type(self), (self.path, self.problem))


def _turn_kinds() -> dict[str, str]:
    kinds: dict[str, str] = {}
    for a in attrs.fields(Turn):
        if a.name == "pending":
            kinds[a.name] = "cards"
        elif a.name == "pending_top":
            kinds[a.name] = "card"
        elif a.name == "start_hand":
            kinds[a.name] = "hand"
        elif a.default is None:
            kinds[a.name] = "maybe_bool"
        elif isinstance(a.default, bool):
            kinds[a.name] = "bool"
        elif isinstance(a.default, int):
            kinds[a.name] = "int"
        else:  # a new kind of Turn field: kept exactly as a list of integers
            kinds[a.name] = "ints"
    return kinds


_TURN_KINDS = _turn_kinds()


def _turn_doc(t: Turn, suited: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v = getattr(t, name)
        if kind == "cards":
            out[name] = _row_text(v)
        elif kind == "card":
            out[name] = None if v == -1 else CODE_TOKENS[v]
        elif kind == "hand":
            out[name] = None if v == () else _hand_text(v, suited)
        elif kind == "ints":
            out[name] = list(v)
        else:
            out[name] = v
    return out


def _result_doc(r: Optional[HandResult]) -> Optional[dict[str, Any]]:
    if r is None:
        return None
    return {
        "went_out": r.went_out, "concealed": r.concealed, "reason": r.reason,
        "scores": [{"side": s.side, "items": [{"name": i.name, "count": i.count, "points": i.points}
                                              for i in s.items]} for s in r.scores],
    }


def state_to_json(state: GameState, *, compact: bool = False) -> str:
    """``state`` in full as JSON text (see the module docs): :func:`state_from_json` gives back
    an equal state with the same history.

    ``compact=True``: a bundled variant played with the rules it is bundled with is saved as
    its name and its settings' hash (``"variant": "samba", "variant_hash": "..."``), not
    every setting (a fresh samba save shrinks from 5.5 KB to 1.4 KB); a house rule
    is still saved whole. Such a save loads only with a canasta that bundles the same rules
    for that variant: another hash is a :class:`StateError` saying so.

    The save holds the hidden cards (every hand, the stock in order) and the ``seed``, which
    decides every later deal: keep saves on the server, never send one to a client (send
    each seat its :func:`observation`).
    """
    _check_state(state)
    c = state._c
    suited = c.d.R.suited
    name = bundled_name(state.variant) if compact else None
    doc: dict[str, Any] = {
        "format": _STATE_FORMAT,
        "version": _STATE_VERSION,
        "players": state.players,
        "seed": state.seed,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "current_player": state.current_player,
        "totals": list(state.totals),
        "hands": [_hand_text(h, suited) for h in state.hands],
        "down_hands": [_hand_text(h, suited) for h in state.down_hands],
        "melds": [[str(m) for m in side] for side in state.melds],  # a sequence by its cards: "5h 6h 7h"
        "red_threes": list(state.red_threes),
        "opened": list(state.opened),
        "melded": list(state.melded),
        "took_last": list(state.took_last),
        "stock": _row_text(state.stock),
        "pile": _row_text(state.pile),
        "frozen": state.frozen,
        "last_turns": state.last_turns,
        "active": list(state.active),
        "precise": list(state.precise),
        "turn": _turn_doc(state.turn, suited),
        "result": _result_doc(state.result),
        "winners": list(state.winners),
        "variant": variant_to_dict(state.variant) if name is None else name,
        "history": [str(a) for a in state.history],
        "history_seats": [None if seat < 0 else seat for seat in _history_seats(state)],
    }
    if name is not None:  # (written after variant, as the reader lists them)
        doc = {k: v for k, v in doc.items() if k not in ("history", "history_seats")}
        doc["variant_hash"] = settings_hash(state.variant)
        doc["history"] = [str(a) for a in state.history]
        doc["history_seats"] = [None if seat < 0 else seat for seat in _history_seats(state)]
    if any(c.aside):
        doc["black_threes_aside"] = list(c.aside)
    if c.turned & ((1 << FOOT) - 1):
        doc["had_turn"] = [bool((c.turned >> s) & 1) for s in range(state.players)]
    if c.buried:
        doc["pile_buried"] = c.buried
    if c.d.R.partner_down:
        doc["playing_foot"] = [bool((c.turned >> (FOOT + s)) & 1) for s in range(state.players)]
    # one top-level key per line: readable, and fast (each value by the C encoder)
    lines = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items())
    return "{\n" + lines + "\n}\n"


def _cards(text: str, path: str, suited: bool = False) -> list[int]:
    """The cards of a card string (already known to be a string): card kinds, or (``suited``)
    card codes, natural cards with their suits."""
    if suited:
        return _code_list(text, path, StateError)
    toks = text.split()
    try:
        return [_KIND[t] for t in toks]
    except KeyError:
        pass
    out = []
    for tok in toks:
        card = _PARSE.get(tok.lower())
        if card is None:
            raise StateError(path, f"{tok!r} is not a card: {_CARD_HELP}{_suit_hint(tok)}")
        out.append(int(card))
    return out


def _counts(kinds: list[int]) -> tuple[int, ...]:
    c = [0] * N_KINDS
    for k in kinds:
        c[k] += 1
    return tuple(c)


def _read_meld(text: str, path: str, R: Rules) -> TableMeld:
    if R.suited:
        got = _suited_meld(text, path, R, StateError)
        if isinstance(got, tuple):
            return _table_meld(got)
        kinds = got
    else:
        kinds = _cards(text, path)
    naturals = [k for k in kinds if k >= B3]
    ranks = sorted(set(naturals))
    if len(ranks) > 1:
        shown = " and ".join(CARD_NAMES_PLURAL[r] for r in ranks)
        raise StateError(path, f"{text!r} mixes {shown}: a meld holds cards of one rank (and wild cards)")
    jk, tw, r3 = kinds.count(JK), kinds.count(TWO), kinds.count(R3)
    if not naturals and not jk and not tw:
        raise StateError(path, f"{text!r} is not a meld: write its cards, such as \"7 7 7 JK\"")
    if r3 > 1:
        raise StateError(path, f"{text!r}: a canasta is topped with one red three at most")
    m = TableMeld(ranks[0] if ranks else WILD_RANK, len(naturals), jk, tw, r3 == 1)
    problem = _meld_problem(R, m)
    if problem is not None:
        raise StateError(path, f"{text!r} is not a valid meld in {R.variant.name}: {problem}")
    return m


def _turn_doc_class() -> type:
    """The ``turn`` object of a state save: every field of :class:`Turn`, each required."""
    types: dict[str, Any] = {
        "cards": str, "card": Optional[str], "hand": Optional[str], "maybe_bool": Optional[bool],
        "bool": bool, "int": int, "ints": Annotated[tuple[int, ...], _Items("integers")],
    }
    return attrs.make_class("_TurnDoc", {name: attrs.field(type=types[kind]) for name, kind in _TURN_KINDS.items()},
                            frozen=True, kw_only=True)


_TurnDoc = _turn_doc_class()


def _read_turn(raw: Any, suited: bool) -> Turn:
    kw: dict[str, Any] = {}
    for name, kind in _TURN_KINDS.items():
        v, path = getattr(raw, name), f"turn.{name}"
        if kind == "cards":
            kw[name] = tuple(_cards(v, path, suited))
        elif kind == "card":
            if v is None:
                kw[name] = -1
            else:
                one = _cards(v, path, suited)
                if len(one) != 1:
                    raise StateError(path, f"expected one card or null, got {len(one)} cards")
                kw[name] = one[0]
        elif kind == "hand":
            kw[name] = () if v is None else _code_counts(_cards(v, path, suited), suited)
        elif kind == "int":
            kw[name] = _bounded(v, path, 0, None, StateError)
        else:
            kw[name] = v
    return Turn(**kw)


@frozen(kw_only=True)
class _ItemDoc:
    """One score item of a saved hand result."""

    name: str
    count: int
    points: int


@frozen(kw_only=True)
class _ScoreDoc:
    """One side's score of a saved hand result."""

    side: int
    items: Annotated[tuple[_ItemDoc, ...], _Items("score items")]


@frozen(kw_only=True)
class _ResultDoc:
    """The ``result`` object of a state save."""

    went_out: Optional[int]
    concealed: bool
    reason: str
    scores: Annotated[tuple[_ScoreDoc, ...], _Items("score objects")]


def _read_result(raw: _ResultDoc, R: Rules) -> HandResult:
    went_out = None if raw.went_out is None else _bounded(raw.went_out, "result.went_out", 0, R.players - 1,
                                                          StateError)
    scores = []
    for i, sc in enumerate(raw.scores):
        at = f"result.scores.{i}"
        side = _bounded(sc.side, f"{at}.side", 0, R.n_sides - 1, StateError)
        if side != i:
            raise StateError(f"{at}.side", f"the scores are listed one per side, in side order: "
                             f"result.scores.{i} is side {i}, not {side}")
        items = tuple(ScoreItem(it.name, it.count, it.points) for it in sc.items)
        scores.append(HandScore(side, items))
    return HandResult(went_out=went_out, concealed=raw.concealed, scores=tuple(scores), reason=raw.reason)


_Ints = Annotated[tuple[int, ...], _Items("integers")]
_Flags = Annotated[tuple[bool, ...], _Items("true/false")]
_Seats = Annotated[tuple[int, ...], _Items("seats")]
_CardStrings = Annotated[tuple[str, ...], _Items("card strings")]


@frozen(kw_only=True)
class _StateDoc:
    """A state save's JSON object: every key required but ``history_seats``, in the order
    :func:`state_to_json` writes them."""

    format: Any  # checked to be "canasta-state"
    version: int
    players: int
    seed: int
    hand_number: int
    dealer: int
    phase: str
    current_player: Optional[int]
    totals: _Ints
    hands: _CardStrings
    down_hands: _CardStrings
    melds: Annotated[tuple[Annotated[tuple[str, ...], _Items("meld strings")], ...], _Items("lists of melds")]
    red_threes: _Ints
    opened: _Flags
    melded: _Flags
    took_last: _Flags
    stock: str
    pile: str
    frozen: bool
    last_turns: int
    active: _Seats
    precise: _Seats
    turn: _TurnDoc  # type: ignore[valid-type]
    result: Optional[_ResultDoc]
    winners: Annotated[tuple[int, ...], _Items("sides")]
    variant: Any  # a JSON object of settings, checked by the variant loader; or a bundled name
    variant_hash: Optional[str] = None  # (with a bundled variant's name) its settings' hash
    black_threes_aside: _Ints = ()
    had_turn: _Flags = ()
    playing_foot: _Flags = ()
    pile_buried: int = 0
    history: Annotated[tuple[str, ...], _Items("actions in notation")]
    history_seats: Optional[Annotated[tuple[Optional[int], ...],
                                      _Items("seats or null, one per history action")]] = None


_STATE_STYLE = _Style(StateError, lambda path: "a JSON object")


def _length(items: tuple[Any, ...], path: str, length: int, why: str) -> tuple[Any, ...]:
    if len(items) != length:
        raise StateError(path, f"expected {length} items ({why}), got {len(items)}")
    return items


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats)


def state_from_json(text: str) -> GameState:
    """The :class:`GameState` saved by :func:`state_to_json` (equal, with the same history).

    Everything is checked before anything is built (see the module docs); a problem raises
    :class:`StateError` saying what is wrong and where.
    """
    if not isinstance(text, str):
        raise ArgumentError("text", f"state_from_json takes the JSON text (a str), not {show(text)}")
    try:
        raw = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_bad_constant)
    except _Duplicate as e:
        raise StateError(e.key, "this key is given twice") from None
    except RecursionError:
        raise StateError("", "not a saved state: arrays or objects nested too deeply") from None
    except json.JSONDecodeError as e:
        if not text.strip():
            raise StateError("", "the save is empty: expected a JSON object") from None
        rest = text[e.pos:].rstrip()
        if (e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
                or (rest and any(word.startswith(rest) for word in ("true", "false", "null")))):
            # (a JSON string cannot hold a line break, so an unterminated one runs to the end; a
            # literal cut short, "f" of false, is refused where it starts)
            raise StateError("", f"the save is cut short (truncated): the JSON text ends at line "
                             f"{e.lineno} column {e.colno} in the middle of a value ({e.msg})") from None
        raise StateError("", f"not valid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except ValueError as e:
        raise StateError("", f"not valid JSON: {e}") from None
    if not isinstance(raw, dict):
        raise StateError("", f"expected a JSON object of a saved state, got {_show(raw)}")
    doc: _StateDoc = _structure(raw, _StateDoc, _STATE_STYLE)
    if doc.format != _STATE_FORMAT:
        raise StateError("format", f"expected {_STATE_FORMAT!r} (a saved canasta state), got {_show(doc.format)}")
    if doc.version != _STATE_VERSION:
        raise StateError("version", f"this version of canasta reads saves of version {_STATE_VERSION}, "
                         f"not {doc.version}")

    variant = _read_variant_ref(doc.variant, doc.variant_hash, "a JSON object of settings", StateError)
    vname = variant.name
    players = doc.players
    if str(players) not in variant.tables:
        allowed = ", ".join(sorted(variant.tables, key=int))
        raise StateError("players", f"{vname} is played by {allowed} players, not {players}")
    R = rules_for(variant, players)
    n_sides = R.n_sides
    per_seat = f"one per seat: {players} players"
    per_side = f"one per side: {n_sides} sides at a {players}-player {vname} table"

    seed = _bounded(doc.seed, "seed", -_SEED_LIMIT, _SEED_LIMIT, StateError)
    hand_number = _bounded(doc.hand_number, "hand_number", 0, MAX_HAND_NUMBER, StateError)
    dealer = _bounded(doc.dealer, "dealer", 0, players - 1, StateError)
    totals = _length(doc.totals, "totals", n_sides, per_side)

    want_active = _active_seats(R, hand_number)
    active = doc.active
    if active != want_active:
        raise StateError("active", f"hand {hand_number + 1} of a {players}-player {vname} table is played "
                         f"by seats {_seats(want_active)} in that order, not {_seats(active) or 'none'}")

    suited = R.suited
    hands = []
    for key in ("hands", "down_hands"):
        seats = _length(getattr(doc, key), key, players, per_seat)
        hands.append([_code_counts(_cards(x, f"{key}.{s}", suited), suited) for s, x in enumerate(seats)])
    hands_, downs = hands
    for s in range(players):
        if s not in active and (any(hands_[s]) or any(downs[s])):
            key = "hands" if any(hands_[s]) else "down_hands"
            raise StateError(f"{key}.{s}", f"seat {s} sits out hand {hand_number + 1} (seats playing: "
                             f"{_seats(sorted(active))}): it holds no cards")
        if any(downs[s]) and not R.down_size:
            raise StateError(f"down_hands.{s}", f"{vname} deals no down hand")

    melds: list[tuple[TableMeld, ...]] = []
    for i, side in enumerate(_length(doc.melds, "melds", n_sides, per_side)):
        ms = tuple(_read_meld(t, f"melds.{i}.{j}", R) for j, t in enumerate(side))
        _one_per_rank(ms, R, lambda j: f"melds.{i}.{j}", StateError)
        melds.append(ms)
    # (a count of the deck's threes: at most as many as it has)
    red_threes = tuple(_bounded(x, f"red_threes.{i}", 0, R.deck[R3], StateError)
                       for i, x in enumerate(_length(doc.red_threes, "red_threes", n_sides, per_side)))
    opened = _length(doc.opened, "opened", n_sides, per_side)
    melded = _length(doc.melded, "melded", players, per_seat)
    took_last = _length(doc.took_last, "took_last", players, per_seat)
    aside = tuple(_bounded(x, f"black_threes_aside.{i}", 0, R.deck[B3], StateError) for i, x in
                  enumerate(_length(doc.black_threes_aside, "black_threes_aside", n_sides, per_side)
                            if doc.black_threes_aside else ()))
    had_turn = _length(doc.had_turn, "had_turn", players, per_seat) if doc.had_turn else ()
    playing_foot = _length(doc.playing_foot, "playing_foot", players, per_seat) if doc.playing_foot else ()
    stock = tuple(_cards(doc.stock, "stock", suited))
    pile = tuple(_cards(doc.pile, "pile", suited))
    buried = _bounded(doc.pile_buried, "pile_buried", 0, None, StateError)
    if buried and not R.buried:
        raise StateError("pile_buried", "the variant buries no cards under the upcard (its upcard.buried is "
                         "\"none\"): leave pile_buried out")
    if buried and buried >= len(pile):
        raise StateError("pile_buried", f"is {buried}, but the pile holds {len(pile)} cards and the top one "
                         f"(the upcard, or a discard on it) is face up: at most {max(0, len(pile) - 1)}")
    frozen_ = doc.frozen
    if not stock and R.last_round:
        last_turns = _bounded(doc.last_turns, "last_turns", -1, len(active), StateError)
    else:
        last_turns = doc.last_turns
        if last_turns != -1:
            why = ("the stock still has cards" if R.last_round
                   else f"{vname} has no last round when the stock runs out")
            raise StateError("last_turns", f"must be -1: {why}")

    # ---- phase, whose turn, turn record, result, winners
    phase_raw = doc.phase
    try:
        phase = Phase(phase_raw)
    except ValueError:
        names = [p.value for p in Phase]
        found = difflib.get_close_matches(phase_raw, names, n=1, cutoff=0.5)
        hint = f"did you mean {found[0]!r}? " if found else ""
        raise StateError("phase", f"unknown phase {phase_raw!r}: {hint}use one of {', '.join(names)}") from None
    over = phase in _OVER
    current = doc.current_player
    if over and current is not None:
        raise StateError("current_player", f"the hand is over (phase {phase.value}): nobody acts, "
                         f"so current_player must be null, not {current}")
    if not over:
        if current is None:
            raise StateError("current_player", f"phase {phase.value} needs a seat to act, not null "
                             "(only a hand that is over has nobody to act)")
        if current not in active:
            raise StateError("current_player", f"{current} is not a seat playing hand {hand_number + 1}: "
                             f"the seats playing are {_seats(sorted(active))}")
    turn = _read_turn(doc.turn, suited)
    if current is not None and turn.melds_before > len(melds[R.side_of[current]]):
        raise StateError("turn.melds_before", _melds_before_problem(turn.melds_before, R.side_of[current],
                                                                     len(melds[R.side_of[current]])))
    if over and turn != Turn():
        raise StateError("turn", f"the hand is over (phase {phase.value}): nobody has a turn, so every "
                         "turn field must be at its default")
    result = None
    if doc.result is not None:
        if not over:
            raise StateError("result", f"only a hand that is over has a result; phase is {phase.value}")
        result = _read_result(doc.result, R)
    winners = tuple(_bounded(x, f"winners.{i}", 0, n_sides - 1, StateError) for i, x in enumerate(doc.winners))
    if winners and phase is not Phase.GAME_OVER:
        raise StateError("winners", f"only a game that is over has winners; phase is {phase.value}")
    if len(set(winners)) != len(winners):
        raise StateError("winners", "a side is listed twice")
    precise = tuple(_bounded(x, f"precise.{i}", 0, players - 1, StateError) for i, x in enumerate(doc.precise))
    if list(precise) != sorted(set(precise)):
        raise StateError("precise", "list each dealer's seat once, in increasing order")

    # ---- history
    history: list[Action] = []
    space = space_of(R)
    for i, a in enumerate(doc.history):
        try:
            action = parse_action(a)
        except ActionParseError as e:
            raise StateError(f"history.{i}", str(e)) from None
        if action not in space:
            raise StateError(f"history.{i}", f"'{action}' is not an action of {vname}")
        history.append(action)
    history_seats: list[int] = []
    if doc.history_seats is None and "history_seats" in raw:
        raise StateError("history_seats", "expected a list of seats or null, one per history action, got null")
    if doc.history_seats is not None:
        if len(doc.history_seats) != len(history):
            raise StateError("history_seats", f"has {len(doc.history_seats)} entries; expected one per action "
                             f"of history ({len(history)})")
        for i, x in enumerate(doc.history_seats):
            if x is None:
                history_seats.append(-1)
                continue
            if not 0 <= x < players:
                raise StateError(f"history_seats.{i}", f"is {x}; expected a seat from 0 to {players - 1} "
                                 "or null (not known)")
            history_seats.append(x)

    # ---- every card of the deck exactly once
    loose = stock + pile + turn.pending + (3,) * sum(aside)
    if suited:
        per_kind, per_code = _suited_counts(hands_ + downs, [[meld_tuple(m) for m in ms] for ms in melds],
                                            red_threes, loose)
        parts = _suited_mismatch(per_kind, per_code, R, f"the {vname} deck for {players} players", "this state")
    else:
        have = card_totals(hands_, downs, melds, red_threes, loose)
        parts = deck_mismatch(have, R.deck, f"the {vname} deck for {players} players", "this state")
    if parts:
        raise StateError("cards", "; ".join(parts) + " (counting hands, down hands, melds, faced red "
                         "threes, the stock, the pile and turn.pending)")

    state = _from_fields(
        variant=variant, players=players, seed=seed, hand_number=hand_number, dealer=dealer,
        totals=totals, hands=tuple(hands_), down_hands=tuple(downs), melds=tuple(melds),
        red_threes=red_threes, opened=opened, melded=melded, stock=stock, pile=pile, frozen=frozen_,
        current_player=current, phase=phase, turn=turn, took_last=took_last, last_turns=last_turns,
        active=active, precise=precise, result=result, winners=winners, rules=R, history=tuple(history),
        history_seats=tuple(history_seats), black_threes_aside=aside, turns_done=tuple(had_turn),
        pile_buried=buried,
        playing_down=tuple(playing_foot),
    )
    from .._playable import unplayable

    bad = unplayable(state)
    if bad is not None:
        kind, seat, problem = bad
        raise StateError(f"hands.{seat}" if kind == "hand" else "current_player" if kind == "no_action" else kind,
                         problem)
    return state
