"""Why an action is illegal, in a player's words (computed only when one is refused).

:func:`explain` is called by :meth:`GameState.apply` and :meth:`GameState.why_illegal` only
for an action that is not among ``state.legal_actions()``. It checks the rules in the order a
player would: is anyone to act, is it the right moment for this kind of action, does the
variant have such an action at all, are the cards in the hand, what does the pile allow,
is the meld well formed, the initial minimum, going out. The first rule that applies is the
answer. Everything is read from the compiled rules (``state._rules``), never from a
variant's name. When only the engine's turn planner objects, the answer is the generic
``"this would leave the turn impossible to finish legally (...)"``.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _engine as _E
from ._actions import Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take
from ._cards import N_KINDS, WILD_RANK
from ._state import GameState, Phase, TableMeld

JK, TWO, R3, B3 = 0, 1, 2, 3

FALLBACK = "this would leave the turn impossible to finish legally"
"""The start of the generic answer, given when no specific rule explains a refusal."""

_NAMES = ("joker", "deuce", "red three", "black three", "4", "5", "6", "7", "8", "9", "10",
          "jack", "queen", "king", "ace")
_PLURALS = ("jokers", "deuces", "red threes", "black threes", "4s", "5s", "6s", "7s", "8s", "9s",
            "10s", "jacks", "queens", "kings", "aces")
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_WAY_SETTING = {"pair": "natural_pair", "joker": "natural_and_wild", "two": "natural_and_wild",
                "onto": "add_to_meld"}


# =============================================================== words


def _a(k: int) -> str:
    """'a 7', 'an 8', 'an ace', 'a joker'."""
    n = _NAMES[k]
    return ("an " if n[0] in "8aeiou" else "a ") + n


def _plural(k: int) -> str:
    return _PLURALS[k]


def _num(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _count(n: int, k: int) -> str:
    """'one 7', 'two 7s', 'no 7'."""
    if n == 1:
        return f"one {_NAMES[k]}"
    if n == 0:
        return f"no {_NAMES[k]}"
    return f"{_num(n)} {_PLURALS[k]}"


def _rank_words(rank: int) -> str:
    """'7s', 'wild cards', 'black threes'."""
    if rank == WILD_RANK:
        return "wild cards"
    return _PLURALS[rank]


def _meld_words(rank: int, index: int = 1) -> str:
    base = f"meld of {_rank_words(rank)}"
    return base if index == 1 else f"{_ordinal(index)} {base}"


def _ordinal(n: int) -> str:
    words = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth", "eleventh", "twelfth")
    return words[n] if 0 <= n < len(words) else f"#{n}"


def _canastas(n: int) -> str:
    return "a canasta" if n == 1 else f"{_num(n)} canastas"


def _held_problem(h: tuple[int, ...], cards: tuple[int, ...]) -> Optional[str]:
    """'you hold no 7' / 'you hold only one 7' when ``cards`` are not all in ``h``."""
    need = [0] * N_KINDS
    for k in cards:
        need[k] += 1
    for k in sorted(set(cards), key=lambda k: (k <= TWO, -k)):
        if h[k] < need[k]:
            if h[k] == 0:
                return f"you hold no {_NAMES[k]}"
            return f"you hold only {_count(h[k], k)} (this needs {_num(need[k])})"
    return None


# =============================================================== small rules


def _who_must(st: GameState) -> str:
    t = st.turn
    if t.answer is True:
        return "your partner said yes, so you must go out this turn"
    if getattr(t, "must_out", False) and not t.black_threes:
        return ("you took the pile below the initial minimum to go out concealed, "
                "so you must go out this turn")
    return "you have melded black threes, so you must go out this turn"


def _freeze_cause(st: GameState, side: int) -> str:
    R = st._rules
    if st.frozen:
        pile = st.pile
        if any(k in (JK, TWO) for k in pile):
            return "the pile is frozen (a wild card in it)"
        if B3 in pile and B3 in R.freeze_discard | R.upcard_freezes:
            return "the pile is frozen (a black three in it)"
        if R3 in pile:
            return "the pile is frozen (a red three turned up in it)"
        return "the pile is frozen"
    return "the pile is frozen for your side until it makes its initial meld"


def _frozen_ways_words(R: Any, rank: int) -> str:
    ways = R.take_frozen
    parts = []
    if "natural_pair" in ways:
        parts.append(f"a natural pair of {_plural(rank)}")
    if "natural_and_wild" in ways:
        parts.append(f"a natural {_NAMES[rank]} and a wild card")
    if "add_to_meld" in ways:
        parts.append(f"by adding it to your side's {_meld_words(rank)}")
    if not parts:
        return "it may not be taken at all"
    return "take it only with " + " or ".join(parts)


def _ways_words(ways: frozenset[str] | set[str]) -> str:
    parts = []
    if "natural_pair" in ways:
        parts.append("with a natural pair of the top card's rank")
    if "natural_and_wild" in ways:
        parts.append("with one natural and one wild card")
    if "add_to_meld" in ways:
        parts.append("by adding the top card to a meld of your side")
    return " or ".join(parts) if parts else "in no way"


def _wild_limit_words(R: Any, naturals: int) -> str:
    if R.ratio == "at_most_naturals":
        return f"wild cards may not outnumber the natural cards, and a meld holds at most {R.max_wild}"
    if R.ratio == "fewer_than_naturals":
        return f"a meld needs more natural cards than wild cards, and holds at most {R.max_wild} wild cards"
    return f"a meld holds at most {R.max_wild} wild cards"


def _meld_problem(R: Any, m: TableMeld) -> Optional[str]:
    """Why the (new or grown) meld ``m`` is not a valid meld, or None if it is."""
    if R.valid(m):
        return None
    if m.rank == WILD_RANK:
        if not R.wild_melds:
            return "wild cards may never be melded without natural cards"
        return f"a meld of wild cards needs at least {R.min_size} cards"
    if m.rank == B3:
        if m.wilds:
            return "black threes are melded without wild cards"
        if m.naturals > R.b3_max:
            return f"a meld of black threes holds at most {R.b3_max}"
        if R.b3_min == R.b3_max:
            return f"black threes are melded only as a meld of exactly {R.b3_min}"
        return f"a meld of black threes needs at least {R.b3_min}"
    if m.naturals < R.min_nat:
        return f"a meld needs at least {_num(R.min_nat)} natural cards (this has {_num(m.naturals)})"
    if m.size < R.min_size:
        return f"a meld needs at least {_num(R.min_size)} cards"
    if R.closed and m.size > R.cs:
        return f"a canasta is exactly {R.cs} cards and is then closed"
    cap = R.wild_cap(m.naturals)
    if m.wilds > cap:
        have = f"(this would have {m.naturals} natural and {m.wilds} wild)"
        if R.unlimited:
            if m.naturals + cap >= R.cs:
                return (f"{_wild_limit_words(R, m.naturals)} until it is a completed canasta; "
                        f"complete the canasta first {have}")
            return (f"{_wild_limit_words(R, m.naturals)}; more wild cards may be added only to a "
                    f"completed canasta {have}")
        return f"{_wild_limit_words(R, m.naturals)} {have}"
    return "this is not a valid meld"  # pragma: no cover - valid() has no other rule


def _go_out_problem(st: GameState, seat: int, melds: tuple[TableMeld, ...]) -> Optional[str]:
    """Why this player may not go out now (partner said no, too few canastas), or None."""
    R = st._rules
    if not _E._may_go_out(st):
        return "your partner said no, so you may not go out this turn"
    if any(st.down_hands[seat]):
        return "you may not go out before playing your down hand"
    have = _E._side_canastas(R, melds)
    if have < R.canastas_needed:
        side = R.side_of[seat]
        who = "your side needs" if len(R.members[side]) > 1 else "you need"
        return (f"{who} {_canastas(R.canastas_needed)} to go out (it has {_num(have) if have else 'none'}): "
                f"keep at least {_num(R.keep_out)} cards, one to discard")
    return None


def _after_problem(st: GameState, seat: int, h: tuple[int, ...], melds: tuple[TableMeld, ...],
                   must: bool, may_out: bool, what: str) -> Optional[str]:
    """Why the turn could not be finished from hand ``h`` (side opened), mirroring ``_after_ok``."""
    R = st._rules
    if _E._after_ok(st, seat, h, melds, must, may_out, 0):
        return None
    down = any(st.down_hands[seat])
    if must:
        if down:
            return f"{_who_must(st)}, and you still have your down hand to play"
        return f"{_who_must(st)}, and after {what} you could not meld all your cards"
    n = sum(h)
    if not may_out:
        return (f"your partner said no, so you may not go out: after {what} you would hold "
                f"{_num(n)} card{'s' if n != 1 else ''}; keep at least {_num(R.keep_out)}")
    g = _go_out_problem(st, seat, melds)
    if g:
        return g
    return None


def _initial_words(st: GameState, side: int, count: int) -> str:
    need = st.variant.initial_need(st.totals[side])
    return f"initial meld needs {need}, these melds count {count}"


def _short_words(st: GameState, seat: int, h: tuple[int, ...], melds: tuple[TableMeld, ...], rem: int,
                 keep: int) -> str:
    """Why the rest of the hand cannot make up ``rem`` more points for the initial meld."""
    R = st._rules
    pts, _left = _E._greedy(R, h, melds, True)
    if pts < rem:
        return f"the rest of your hand cannot make up the missing {rem} (at most {pts} more)"
    return f"the rest of your hand cannot make up the missing {rem} while keeping {_num(keep)} cards"


def _ask_problem(st: GameState, seat: int) -> str:
    return "you could not go out this turn even with a yes, so there is nothing to ask"


# =============================================================== the explainer


def explain(st: GameState, a: Any) -> str:
    """Why ``a`` is not legal in ``st``, in a Canasta player's words (``a`` is not legal).

    Never raises: should a check fail on an unforeseen position, the answer is the generic one.
    """
    try:
        return explain_strict(st, a)
    except Exception as e:  # pragma: no cover - an explanation must not hide the refusal
        return f"{FALLBACK} (no rule found: {type(e).__name__})"


def explain_strict(st: GameState, a: Any) -> str:
    """:func:`explain`, letting an unexpected error through (for tests)."""
    ph = st.phase
    if ph is Phase.GAME_OVER:
        return "the game is over: nobody is to act"
    if ph is Phase.HAND_OVER or st.current_player is None:
        return "the hand is over: nobody is to act until the next hand is dealt"
    R = st._rules
    why = _phase_problem(st, a)
    if why:
        return why
    if a not in R.space:
        return _space_problem(st, a)
    t = st.turn
    if (t.black_threes and R.b3_rule == "last_meld" and ph in (Phase.MELD, Phase.FINAL_MELD)
            and isinstance(a, (Meld, Add, Combine, Ask, Discard))):
        held = _held_problem(st.hands[st.current_player], (a.card,)) if isinstance(a, Discard) else None
        return held or ("black threes may be melded only as your last meld before going out: "
                        "nothing may follow them but the final discard")
    if isinstance(a, Draw):
        why = _draw_problem(st)
    elif isinstance(a, Take):
        why = _take_problem(st, a)
    elif isinstance(a, Meld):
        why = _meld_action_problem(st, a)
    elif isinstance(a, Add):
        why = _add_problem(st, a)
    elif isinstance(a, Combine):
        why = _combine_problem(st, a)
    elif isinstance(a, Discard):
        why = _discard_problem(st, a)
    elif isinstance(a, Ask):
        why = _ask_action_problem(st)
    elif isinstance(a, Pass):
        why = _pass_problem(st)
    elif isinstance(a, Retract):
        why = _retract_problem(st)
    elif isinstance(a, Done):
        why = None
    else:
        return f"{a!r} is not an action"
    if why:
        return why
    return f"{FALLBACK} ({_fallback_detail(st, a)})"


def _fallback_detail(st: GameState, a: Any) -> str:
    t = st.turn
    if _E._must_go_out(st):
        return "you must go out this turn"
    if t.answer is False:
        return "your partner said no: you must keep cards to discard"
    return f"no way to end the turn after '{a}'"


# --------------------------------------------------------------- phase


_DRAW_KINDS = (Draw, Take, Ask, Pass)


def _phase_problem(st: GameState, a: Any) -> Optional[str]:
    ph = st.phase
    R = st._rules
    t = st.turn
    if ph is Phase.ANSWER:
        if isinstance(a, Answer):
            return None
        return "your partner has asked \"may I go out?\": the only actions now are yes or no"
    if isinstance(a, Answer):
        return "nobody has asked \"may I go out?\": there is nothing to answer"
    if ph is Phase.DRAW:
        if isinstance(a, _DRAW_KINDS):
            return None
        if isinstance(a, Retract):
            if not R.undo_take:
                return "this variant has no retracting a take of the pile"
            if t.no_take:
                return "you have already retracted your take: now draw from the stock"
            return "you have not taken the pile: there is nothing to retract"
        if isinstance(a, Done):
            return ("'done' ends a turn only when the last card of the stock was a red three; "
                    "draw or take the pile first")
        if not st.stock and isinstance(a, (Meld, Add, Combine, Discard)):
            return "the stock is exhausted: take the pile or pass first"
        return "draw or take the pile first"
    # after the draw: MELD, FINAL_MELD, INITIAL_TAKE
    took = "taken the pile" if t.took else "drawn"
    if ph is Phase.FINAL_MELD and isinstance(a, (Draw, Take, Pass)):
        return "you have already drawn the last card of the stock, a red three: meld, then say 'done'"
    if isinstance(a, (Draw, Take)):
        if ph is Phase.INITIAL_TAKE:
            return "you are already taking the pile: meld from your hand to reach the initial minimum"
        return f"you have already {took} this turn: meld, add or discard"
    if isinstance(a, Pass):
        if st.stock:
            return f"you have already {took} this turn; 'pass' only declines the pile when the stock is exhausted"
        return f"you have already {took} this turn: meld, add or discard"
    if ph is Phase.INITIAL_TAKE:
        need = _E._opening_need(st, R.side_of[st.current_player])
        if isinstance(a, Discard):
            side = R.side_of[st.current_player]
            return (f"you are taking the pile for your initial meld: {_initial_words(st, side, t.count)}; "
                    f"meld {need} more before you discard")
        if isinstance(a, Ask):
            return "you may not ask \"may I go out?\" after melding (you are taking the pile)"
        if isinstance(a, Combine):
            if not R.combine:
                return "this variant has no combining of melds"
            return "you may not combine melds while taking the pile for your initial meld"
        if isinstance(a, Done):
            return "'done' is only for when the last card of the stock was a red three"
        return None
    if ph is Phase.FINAL_MELD:
        if isinstance(a, Discard):
            return "the last card of the stock was a red three: you may meld but not discard; say 'done'"
        if isinstance(a, Ask):
            return "the last card of the stock was a red three: you may only meld, then say 'done'"
        if isinstance(a, Retract):
            return _retract_words(st)
        return None
    # MELD
    if isinstance(a, Done):
        if not st.stock and R.last_round:
            return "you can still discard, so end your turn with a discard"
        return "'done' is only for when the last card of the stock was a red three: end your turn with a discard"
    if isinstance(a, Retract):
        return _retract_words(st)
    return None


def _retract_words(st: GameState) -> str:
    if not st._rules.undo_take:
        return "this variant has no retracting a take of the pile"
    return "there is no take of the pile for an initial meld to retract"


# --------------------------------------------------------------- action space


def _space_problem(st: GameState, a: Any) -> str:
    """The variant has no such action at all (no id in its ActionSpace)."""
    R = st._rules
    if isinstance(a, Combine):
        if not R.combine:
            return "this variant has no combining of melds"
        return f"your side cannot hold that many melds of {_rank_words(a.rank)}"
    if isinstance(a, (Ask, Answer)):
        return "this variant has no asking \"may I go out?\""
    if isinstance(a, Take):
        ways = R.take_unfrozen | R.take_frozen
        if a.rank < 4:
            return f"{_a(a.rank)} on top of the pile can never be taken"
        if _WAY_SETTING.get(a.way) not in ways:
            return f"in this variant the pile is taken only {_ways_words(ways)}"
        return f"your side can never hold a {_ordinal(a.meld)} meld of {_rank_words(a.rank)}"
    if isinstance(a, Meld):
        return _meld_shape_words(R, a.cards)
    if isinstance(a, Add):
        card, rank = a.card, a.rank
        if rank == WILD_RANK:
            if not R.wild_melds:
                return "this variant has no melds of wild cards only"
            return f"only wild cards go on a meld of wild cards, not {_a(card)}"
        if rank in (JK, TWO, R3) or (rank == B3 and R.b3_rule == "never"):
            return f"there are no melds of {_plural(rank)}"
        if card == R3:
            if R.keep_r3:
                return "a red three may only top a closed natural canasta"
            return "red threes are never melded: they are faced as bonus cards"
        if rank == B3:
            if card != B3:
                return "black threes are melded without wild cards"
            if a.meld > 1:
                return "your side has at most one meld of black threes"
            if R.b3_min == R.b3_max:
                return f"black threes are melded only as one meld of exactly {R.b3_min}, never added to"
            return "black threes may not be added to"
        if card != rank and card not in (JK, TWO):
            return f"{_a(card)} cannot go on a {_meld_words(rank)}"
        if a.meld > 1:
            if not R.multi:
                return f"your side may hold only one meld of each rank, so there is no {_meld_words(rank, a.meld)}"
            return f"your side can never hold a {_ordinal(a.meld)} meld of {_rank_words(rank)}"
        return "this variant has no such addition"  # pragma: no cover
    if isinstance(a, Discard):
        return "there is no such card to discard"  # pragma: no cover
    return f"'{a}' is not an action of this variant"


def _meld_shape_words(R: Any, cards: tuple[int, ...]) -> str:
    """Why a new meld of ``cards`` is not in the variant's action space."""
    nats = [k for k in cards if k > TWO]
    wilds = [k for k in cards if k <= TWO and k != R3]
    if R3 in cards:
        if R.keep_r3:
            return "red threes are not melded: a red three may only top a closed natural canasta"
        return "red threes are never melded: they are faced as bonus cards"
    if len(set(nats)) > 1:
        names = [_plural(k) for k in sorted(set(nats), reverse=True)]
        return f"a meld is of one rank: {', '.join(names[:-1])} and {names[-1]} cannot be melded together"
    if nats and nats[0] == B3:
        if R.b3_rule == "never":
            return "black threes are never melded"
        if wilds:
            return "black threes are melded without wild cards"
        if not R.b3_min <= len(nats) <= R.b3_max:
            if R.b3_min == R.b3_max:
                return f"black threes are melded only as a meld of exactly {R.b3_min}"
            return f"a meld of black threes holds {R.b3_min} to {R.b3_max} of them"
    if not nats:
        if not R.wild_melds:
            return "wild cards may never be melded without natural cards"
        if len(wilds) != R.min_size:
            return f"lay a meld of wild cards as {_num(R.min_size)} cards, then add the rest one at a time"
    m = TableMeld(nats[0] if nats else WILD_RANK, len(nats), wilds.count(JK), wilds.count(TWO))
    why = _meld_problem(R, m)
    if why:
        return why
    return (f"lay a new meld as {_num(R.min_size)} cards (a natural pair and a third card), "
            "then add the rest one at a time")


# --------------------------------------------------------------- draw, pass, ask, retract


def _draw_problem(st: GameState) -> Optional[str]:
    R = st._rules
    if not st.stock:
        if R.last_round:
            return "the stock is exhausted: take the pile or pass, then meld and discard"
        return "the stock is exhausted: take the pile or pass"
    if _E._must_go_out(st):
        return (f"{_who_must(st)}: drawing might not let you, so take the pile that lets you go out")
    return None


def _pass_problem(st: GameState) -> Optional[str]:
    R = st._rules
    if st.stock:
        return "you may pass only when the stock is exhausted: draw or take the pile"
    takes = [a for a in _E.legal_actions(st) if isinstance(a, Take)]
    if takes and not R.last_round:
        if R.must_take == "any_legal":
            return "the stock is exhausted and you can take the pile, so you must take it"
        return ("the stock is exhausted and the top card can be added to a meld of your side, "
                "so you must take the pile")
    return None


def _ask_action_problem(st: GameState) -> Optional[str]:
    R = st._rules
    t = st.turn
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    if not R.permission:
        return "you have no partner to ask \"may I go out?\""
    if t.asked or t.answer is not None:
        return "you have already asked \"may I go out?\" this turn: the answer binds you"
    if st.phase is Phase.MELD:
        if t.took and not R.ask_after_take:
            return ("you may not ask \"may I go out?\" after taking the pile: ask before drawing "
                    "or after drawing from the stock")
        if t.melded:
            return "you may not ask \"may I go out?\" after melding"
    if st.phase is Phase.DRAW and not st.stock:
        return "the stock is exhausted: take the pile or pass"
    return _ask_problem(st, seat)


def _retract_problem(st: GameState) -> Optional[str]:
    R = st._rules
    t = st.turn
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    if st.phase is not Phase.INITIAL_TAKE:
        return _retract_words(st)
    side = R.side_of[seat]
    need = _E._opening_need(st, side)
    return (f"you can still make your initial meld ({_initial_words(st, side, t.count)}): retract the take "
            f"only when the {need} more can no longer be reached")


# --------------------------------------------------------------- take


def _take_problem(st: GameState, a: Take) -> Optional[str]:
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    t = st.turn
    h = st.hands[seat]
    if t.no_take:
        return "you retracted your take of the pile: now you must draw from the stock"
    if not st.pile:
        return "the pile is empty"
    top = st.pile[-1]
    if top in R.blocked or top < 4:
        return f"the pile is blocked by {_a(top)} on top: it cannot be taken until a natural card covers it"
    if not R.consecutive and st.took_last[seat]:
        return "you took the pile on your last turn: it may not be taken on two turns in a row"
    frozen = st.frozen or (R.frozen_until_initial and not st.opened[side])
    ways = R.take_frozen if frozen else R.take_unfrozen
    setting = _WAY_SETTING[a.way]
    if setting not in ways:
        if frozen:
            return f"{_freeze_cause(st, side)}: {_frozen_ways_words(R, top)}"
        return f"the pile may be taken only {_ways_words(ways)}"
    if a.rank != top:
        return f"the top card of the pile is {_a(top)}, not {_a(a.rank)}"
    melds = st.melds[side]
    if a.way == "onto":
        same = [m for m in melds if m.rank == top]
        if not same:
            return f"your side has no {_meld_words(top)} to add the top {_NAMES[top]} to"
        if a.meld > len(same):
            what = _meld_words(top) if len(same) == 1 else f"melds of {_plural(top)}"
            return f"your side has only {_num(len(same))} {what}"
        if not st.opened[side]:
            return "your side has not made its initial meld: the pile is frozen for it"
        m = same[a.meld - 1]
        idxs = [i for i, x in enumerate(melds) if x.rank == top]
        twin = _twin(st, melds, idxs, a.meld, Take(top, "onto", 1 + same.index(m)))
        if twin:
            return twin
        if R.closed and m.size >= R.cs:
            return f"your canasta of {_plural(top)} is closed: a canasta is exactly {R.cs} cards"
        used: tuple[int, ...] = ()
    else:
        used = (top, top) if a.way == "pair" else (top, JK if a.way == "joker" else TWO)
        held = _held_problem(h, used)
        if held:
            if frozen and a.way == "pair" and h[top] == 1 and (h[JK] or h[TWO]):
                held += f"; {_freeze_cause(st, side)}, so a wild card will not do"
            return held
    opts = dict(_E._take_options(st, seat))
    if a not in opts:
        return None  # pragma: no cover - all pile rules were checked above
    hand_n = sum(h)
    if hand_n == 1 and len(st.pile) == 1:
        if R.one_card == "forbidden":
            return "with only one card in your hand you may not take a pile of only one card"
        if R.one_card == "unless_forced" and st.stock:
            return ("with only one card in your hand you may not take a pile of only one card "
                    "(unless forced to, once the stock is exhausted)")
    opened = st.opened[side]
    must = _E._must_go_out(st)
    may_out = _E._may_go_out(st)
    what = f"taking the pile with '{a}'"
    if not R.pair_melded and opened:
        h2 = tuple(_E._hand_after_take(st, seat, (), True))
        return _after_problem(st, seat, h2, melds, must, may_out, what)
    melds2, idx = _E._take_result_meld(R, melds, a, used)
    if idx is None:
        return _take_meld_problem(st, side, a, used)
    if opened:
        h2 = tuple(_E._hand_after_take(st, seat, used, False))
        return _after_problem(st, seat, h2, melds2, must, may_out, what)
    if must:
        return (f"{_who_must(st)}, and the pile taken for an initial meld does not come into your hand "
                "until the minimum is met")
    if R.undo_take:
        return None
    vals = R.values
    got = vals[top] * (1 + sum(1 for k in used if k == top)) + sum(vals[k] for k in used if k != top)
    count = t.count + got
    need = st.variant.initial_need(st.totals[side]) - count
    hl = list(h)
    for k in used:
        hl[k] -= 1
    keep = max(0, _E._keep(st, seat) - _E._arriving(R, st.pile[:-1]))
    if need <= 0:
        h2 = tuple(_E._hand_after_take(st, seat, used, False))
        return _after_problem(st, seat, h2, melds2, must, may_out, what)
    if _E._reach(R, tuple(hl), melds2, need, keep):
        return None  # pragma: no cover - _take_ok would have allowed it
    why = (f"{_initial_words(st, side, count)} (only the top card and the cards from your hand count)"
           f", and {_short_words(st, seat, tuple(hl), melds2, need, keep)}")
    if R.conc_min == "waived" and not (R.conc_basis == "player" and t.had_melded) and may_out \
            and not any(st.down_hands[seat]):
        why += "; nor could you go out concealed with the pile"
    return why


def _take_meld_problem(st: GameState, side: int, a: Take, used: tuple[int, ...]) -> str:
    R = st._rules
    melds = st.melds[side]
    top = a.rank
    same = [i for i, m in enumerate(melds) if m.rank == top]
    if a.way == "onto":
        m = melds[same[a.meld - 1]]
        nm = TableMeld(m.rank, m.naturals + 1, m.jokers, m.twos, m.red_three)
    elif same and not R.multi:
        m = melds[same[0]]
        nat = 1 + sum(1 for k in used if k == top)
        nm = TableMeld(top, m.naturals + nat, m.jokers + used.count(JK), m.twos + used.count(TWO), m.red_three)
        why = _meld_problem(R, nm)
        if why:
            return f"your side already has a {_meld_words(top)} and these cards would go on it: {why}"
    else:
        nat = 1 + sum(1 for k in used if k == top)
        nm = TableMeld(top, nat, used.count(JK), used.count(TWO))
    return _meld_problem(R, nm) or "the top card and these cards do not form a valid meld"


# --------------------------------------------------------------- meld, add, combine


def _ok_problem(st: GameState, h2: tuple[int, ...], melds2: tuple[TableMeld, ...], gain: int,
                what: str, b3: bool = False) -> Optional[str]:
    """Why the engine's ``ok`` check in ``_legal_meld_phase`` fails for this meld (mirrors it)."""
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    t = st.turn
    opened = st.opened[side]
    must = _E._must_go_out(st)
    may_out = _E._may_go_out(st)
    need_rem = _E._opening_need(st, side)
    if st.phase is Phase.INITIAL_TAKE:
        rem = need_rem - gain
        if rem <= 0:
            return _after_problem(st, seat, _E._plus_pending(R, h2, t.pending), melds2, must, may_out, what)
        keep = max(0, _E._keep(st, seat) - _E._arriving(R, t.pending))
        return f"{_initial_words(st, side, t.count + gain)}, and {_short_words(st, seat, h2, melds2, rem, keep)}"
    if not opened and need_rem > 0:
        rem = need_rem - gain
        if rem <= 0:
            return _after_problem(st, seat, h2, melds2, must or b3, may_out, what) if not b3 else \
                _b3_problem(st, seat, h2, melds2)
        base = _initial_words(st, side, t.count + gain)
        if b3:
            return f"{_b3_problem(st, seat, h2, melds2) or 'black threes are melded only when going out'}"
        if must:
            if may_out and not any(st.down_hands[seat]) and _E._waiver(st, seat):
                return f"{_who_must(st)}, and after {what} you could not meld all your cards"
            return (f"{_who_must(st)}, and {base}: after {what} the rest of your hand cannot both "
                    "make up the minimum and go out")
        short = _short_words(st, seat, h2, melds2, rem, _E._keep(st, seat))
        if not may_out or any(st.down_hands[seat]):
            return f"{base}, and {short}"
        if _E._waiver(st, seat):
            return f"{base}, and {short}; nor could you go out concealed this turn"
        return f"{base}, and {short}; nor could you go out this turn"

    if b3:
        return _b3_problem(st, seat, h2, melds2)
    return _after_problem(st, seat, h2, melds2, must, may_out, what)


def _b3_problem(st: GameState, seat: int, h2: tuple[int, ...], melds2: tuple[TableMeld, ...]) -> Optional[str]:
    only = "black threes may be melded only when going out in the same turn"
    if not _E._may_go_out(st):
        return f"{only}, and your partner said no, so you may not go out this turn"
    if any(st.down_hands[seat]):
        return f"{only}, and you still have your down hand to play"
    g = _go_out_problem(st, seat, melds2)
    if g:
        return f"{only}: {g}"
    return f"{only}, and after melding them you could not meld the rest of your hand"


def _meld_action_problem(st: GameState, a: Meld) -> Optional[str]:
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    h = st.hands[seat]
    melds = st.melds[side]
    cards = a.cards
    held = _held_problem(h, cards)
    if held:
        return held
    r = a.rank
    vals = R.values
    gain = sum(vals[k] for k in cards)
    h2 = list(h)
    for k in cards:
        h2[k] -= 1
    nm = TableMeld(r, sum(1 for k in cards if k > TWO), cards.count(JK), cards.count(TWO))
    if r == B3:
        if any(m.rank == B3 for m in melds):
            return "your side already has a meld of black threes"
        if st.phase is Phase.INITIAL_TAKE:
            return "black threes may not be melded while taking the pile for your initial meld"
        why = _ok_problem(st, tuple(h2), melds + (nm,), gain, f"'{a}'", True)
        if why:
            return why
        if R.b3_rule == "last_meld":
            return "black threes may be melded only as your last meld before going out"
        return None
    if r == WILD_RANK:
        if any(m.rank == WILD_RANK for m in melds):
            return "your side already has a meld of wild cards: add to it instead"
    elif any(m.rank == r for m in melds) and not R.multi:
        return f"your side already has a {_meld_words(r)}: add to it instead (one meld per rank)"
    why = _meld_problem(R, nm)
    if why:
        return why
    return _ok_problem(st, tuple(h2), melds + (nm,), gain, f"'{a}'")


def _add_problem(st: GameState, a: Add) -> Optional[str]:
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    h = st.hands[seat]
    melds = st.melds[side]
    k, r = a.card, a.rank
    idxs = [i for i, m in enumerate(melds) if m.rank == r]
    if not idxs:
        return f"your side has no {_meld_words(r)}"
    if a.meld > len(idxs):
        return f"your side has only {_num(len(idxs))} melds of {_rank_words(r)}" if len(idxs) > 1 else \
            f"your side has only one {_meld_words(r)}"
    held = _held_problem(h, (k,))
    if held:
        return held
    i = idxs[a.meld - 1]
    m = melds[i]
    twin = _twin(st, melds, idxs, a.meld, Add(k, r, 1 + [melds[j] for j in idxs].index(m)))
    if twin:
        return twin
    vals = R.values
    what = f"'{a}'"
    h2 = list(h)
    h2[k] -= 1
    if r == B3:
        if m.naturals >= R.b3_max:
            return f"a meld of black threes holds at most {R.b3_max}"
        nm = TableMeld(B3, m.naturals + 1)
        return _ok_problem(st, tuple(h2), melds[:i] + (nm,) + melds[i + 1:], vals[B3], what, True)
    if k == R3:
        if not (R.closed and m.size >= R.cs):
            return f"a red three may top only a completed natural canasta, and your {_meld_words(r)} is not one"
        if m.wilds:
            return f"a red three may top only a natural canasta; your canasta of {_plural(r)} has wild cards"
        if m.red_three:
            return f"your canasta of {_plural(r)} already has a red three on top"
        nm = TableMeld(m.rank, m.naturals, 0, 0, True)
        return _ok_problem(st, tuple(h2), melds[:i] + (nm,) + melds[i + 1:], 0, what)
    if R.closed and m.size >= R.cs:
        return f"your canasta of {_rank_words(r)} is closed: a canasta is exactly {R.cs} cards"
    nm = TableMeld(m.rank, m.naturals + (k == r), m.jokers + (k == JK), m.twos + (k == TWO), m.red_three)
    why = _meld_problem(R, nm)
    if why:
        return why
    if not st.opened[side] and not R.initial_canasta and nm.size >= R.cs:
        return "a canasta may not be part of an initial meld: this would complete one"
    return _ok_problem(st, tuple(h2), melds[:i] + (nm,) + melds[i + 1:], vals[k], what)


def _combine_problem(st: GameState, a: Combine) -> Optional[str]:
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    melds = st.melds[side]
    idxs = [i for i, m in enumerate(melds) if m.rank == a.rank]
    if len(idxs) < 2:
        return f"your side has {'no' if not idxs else 'only one'} {_meld_words(a.rank)}: there is nothing to combine"
    if a.second > len(idxs):
        return f"your side has only {_num(len(idxs))} melds of {_rank_words(a.rank)}"
    m1, m2 = melds[idxs[a.first - 1]], melds[idxs[a.second - 1]]
    for i in range(len(idxs)):
        for j in range(i + 1, len(idxs)):
            x, y = melds[idxs[i]], melds[idxs[j]]
            if (i + 1, j + 1) == (a.first, a.second):
                break
            if (x, y) == (m1, m2) or (x, y) == (m2, m1):
                same = Combine(a.rank, i + 1, j + 1)
                if st.is_legal(same):
                    return (f"these melds of {_rank_words(a.rank)} are just like numbers {i + 1} and {j + 1}: "
                            f"'{same}' is the same play")
                return explain_strict(st, same)
        else:
            continue
        break
    if m1.wilds + m2.wilds > R.max_wild:
        return (f"combined melds may include no more than {R.max_wild} wild cards; "
                f"these two hold {m1.wilds + m2.wilds}")
    nm = TableMeld(a.rank, m1.naturals + m2.naturals, m1.jokers + m2.jokers, m1.twos + m2.twos)
    new = [x for j, x in enumerate(melds) if j != idxs[a.second - 1]]
    new[idxs[a.first - 1]] = nm
    return _ok_problem(st, st.hands[seat], tuple(new), 0, f"'{a}'")


def _twin(st: GameState, melds: tuple[TableMeld, ...], idxs: list[int], n: int, first: Any) -> Optional[str]:
    """When meld number ``n`` equals an earlier meld of its rank, the engine offers the play
    only on the first of the alike melds (``first``): say so, or why that one is illegal."""
    m = melds[idxs[n - 1]]
    k = [melds[j] for j in idxs].index(m) + 1
    if k == n:
        return None
    if st.is_legal(first):
        return (f"your {_ordinal(n)} {_meld_words(m.rank)} is just like the {_ordinal(k)}: "
                f"play to that one ('{first}'), which is the same play")
    return explain_strict(st, first)


# --------------------------------------------------------------- discard


def _discard_problem(st: GameState, a: Discard) -> Optional[str]:
    R = st._rules
    seat = st.current_player
    assert seat is not None  # explain_strict answers first when nobody is to act
    side = R.side_of[seat]
    h = st.hands[seat]
    t = st.turn
    held = _held_problem(h, (a.card,))
    if held:
        return held
    melds = st.melds[side]
    n = sum(h)
    down = any(st.down_hands[seat])
    opening = not st.opened[side]
    need_rem = _E._opening_need(st, side)
    if n == 1 and not down:
        g = _go_out_problem(st, seat, melds)
        if g:
            return f"discarding your last card would be going out: {g}"
        if opening and t.count > 0 and need_rem > 0:
            base = _initial_words(st, side, t.count)
            if not _E._waiver(st, seat):
                return f"{base}: meld more before you discard"
            if R.conc_own and not t.own_canasta:
                return f"{base}; going out concealed instead, you must meld a complete canasta yourself"
        return None
    if _E._must_go_out(st):
        return f"{_who_must(st)}: meld your cards, keeping at most one to discard last"
    if opening and t.count > 0 and need_rem > 0:
        return f"{_initial_words(st, side, t.count)}: meld {need_rem} more before you discard"
    return None


