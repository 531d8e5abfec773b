"""Reasons: what a failing rule check answers, and the words a player reads.

A check returns None when its rule allows the action, or a reason: a small tuple whose first
item is one of the codes below and whose other items are what the words need. Building the
words costs time (some reasons plan the rest of the hand to say how short it falls), so the
checks only name the reason, and :func:`words` writes it when ``why_illegal`` or a refused
``apply`` asks.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from .._cards import KIND_OF, N_CODES, N_KINDS, SUIT_NAMES, SUIT_OF
from ._kernel import F_B3, F_HAD_MELDED, F_MUST, F_MUST_OUT, F_NO, F_YES, Core, pile_cards
from ._notation import text
from ._canastas import side_canastas
from ._greedy import greedy
from ._plan import reach
from ._rules import (B3, COMP_MIXED, COMP_NATURAL, COMP_SEQ, COMP_WILD, JK, R3, SEQ, TAKE, TWO, W_ONTO, WILD, Meld,
                     Rules, seq_suit)

Reason = tuple[Any, ...]
"""(code, details...): see the codes below."""

FALLBACK: Final = "this would leave the turn impossible to finish legally"
"""The start of the generic answer, given when no specific rule explains a refusal."""

# the codes
(TEXT, DRAW_NO_STOCK, DRAW_MUST, TAKE_RETRACTED, TAKE_EMPTY, TAKE_BLOCKED, TAKE_CONSECUTIVE, TAKE_WAY,
 TAKE_TOP, TAKE_NO_MELD, TAKE_ONLY, TAKE_UNOPENED, TWIN, TAKE_CLOSED, HELD_TAKE, ONE_CARD, TAKE_MELD,
 TAKE_MUST_INITIAL, TAKE_SHORT, PASS_STOCK, PASS_MUST_ANY, PASS_MUST_ONTO, FALLBACK_CODE, ASK_NO_PARTNER,
 ASK_AGAIN, ASK_STOCK, ASK_NOTHING, ASK_AFTER_TAKE, ASK_AFTER_MELD, MUST_DOWN, MUST_MELD_ALL, NO_KEEP,
 GO_OUT_CANASTAS, INITIAL_SHORT, B3_OUT, MUST_INITIAL, INITIAL_SHORT_OUT, HELD, MELD_SHAPE, B3_EXISTS,
 B3_INITIAL_TAKE, B3_LAST, WILD_EXISTS, RANK_EXISTS, ADD_NO_MELD, ADD_ONLY, B3_FULL, R3_NOT_CANASTA, R3_WILD,
 R3_AGAIN, CLOSED, INITIAL_CANASTA, COMBINE_NONE, SAME_COMBINE, COMBINE_WILD, DISCARD_OUT, GO_OUT_NO,
 DISCARD_INITIAL_OUT, DISCARD_CONCEALED_OWN, DISCARD_MUST, DISCARD_INITIAL, RETRACT_REACH, DONE_DISCARD,
 DONE_NOT_FINAL, B3_LAST_ONLY, B3_LAST_CARDS, GO_OUT_PARTNER, GO_OUT_UNFINISHED, OUT_BY_DISCARD, WILD_RULE,
 DEAD_RANK, NATURAL_FIRST, TAKE_DEAD, INITIAL_COMP) = range(74)

# ------------------------------------------------------------------ words

_NAMES: Final = ("joker", "deuce", "red three", "black three", "4", "5", "6", "7", "8", "9", "10", "jack",
                "queen", "king", "ace")
_PLURALS: Final = ("jokers", "deuces", "red threes", "black threes", "4s", "5s", "6s", "7s", "8s", "9s",
                  "10s", "jacks", "queens", "kings", "aces")
# card codes of the variants with sequences: a natural card with its suit
NAMES: Final[tuple[str, ...]] = _NAMES + tuple(f"{_NAMES[KIND_OF[c]]} of {SUIT_NAMES[SUIT_OF[c]]}"
                                               for c in range(N_KINDS, N_CODES))
PLURALS: Final[tuple[str, ...]] = _PLURALS + tuple(f"{_PLURALS[KIND_OF[c]]} of {SUIT_NAMES[SUIT_OF[c]]}"
                                                   for c in range(N_KINDS, N_CODES))
_NUMBERS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_ORDINALS: Final = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                    "ninth", "tenth", "eleventh", "twelfth")


def a_card(k: int) -> str:
    """'a 7', 'an 8', 'an ace', 'a joker'."""
    n = NAMES[k]
    return ("an " if n[0] in "8aeiou" else "a ") + n


def num(n: int) -> str:
    """'one', 'two', ... 'ten', then digits."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def count_of(n: int, k: int) -> str:
    """'one 7', 'two 7s', 'no 7'."""
    if n == 1:
        return f"one {NAMES[k]}"
    if n == 0:
        return f"no {NAMES[k]}"
    return f"{num(n)} {PLURALS[k]}"


def comp_canasta_words(bits: int, points: int) -> str:
    """'a canasta', 'a natural, wild or sequence canasta' (``COMP_*`` bits), and what its cards
    must count."""
    kinds = [name for name, bit in (("natural", COMP_NATURAL), ("mixed", COMP_MIXED), ("wild", COMP_WILD),
                                    ("sequence", COMP_SEQ)) if bits & bit]
    if len(kinds) == 4:
        text = "a canasta"
    elif len(kinds) == 1:
        text = f"a {kinds[0]} canasta"
    else:
        text = f"a {', '.join(kinds[:-1])} or {kinds[-1]} canasta"
    if points:
        text += f" whose own cards count at least {points}"
    return text


def num_points(score: int) -> str:
    """A side's score in words: 'a score of 7,250'."""
    return f"a score of {score:,}"


def rank_words(rank: int) -> str:
    """'7s', 'wild cards', 'black threes'."""
    if rank == WILD:
        return "wild cards"
    if rank >= SEQ:
        return f"{SUIT_NAMES[seq_suit(rank) if rank >= SEQ + 4 else rank - SEQ]} in sequence"
    return PLURALS[rank]


def ordinal(n: int) -> str:
    """'first', 'second', ..."""
    return _ORDINALS[n] if 0 <= n < len(_ORDINALS) else f"#{n}"


def meld_words(rank: int, index: int = 1) -> str:
    """'meld of 7s', 'second meld of 7s'."""
    if rank >= SEQ:
        suit = SUIT_NAMES[seq_suit(rank) if rank >= SEQ + 4 else rank - SEQ]
        base = f"sequence of {suit}"
        return base if index == 1 else f"{ordinal(index)} {base}"
    base = f"meld of {rank_words(rank)}"
    return base if index == 1 else f"{ordinal(index)} {base}"


def canastas_words(n: int) -> str:
    """'a canasta', 'two canastas'."""
    return "a canasta" if n == 1 else f"{num(n)} canastas"


def held_words(h: bytes, cards: tuple[int, ...]) -> str:
    """'you hold no 7' / 'you hold only one 7 (this needs two)'."""
    need = [0] * N_CODES
    for k in cards:
        need[k] += 1
    for k in sorted(set(cards), key=lambda k: (k <= TWO, -k)):
        if h[k] < need[k]:
            if h[k] == 0:
                return f"you hold no {NAMES[k]}"
            return f"you hold only {count_of(h[k], k)} (this needs {num(need[k])})"
    return "you hold these cards"  # pragma: no cover - only asked about cards not held


def what_words(probe: Any) -> str:
    """How the words name an action: ``'meld 7 7 7'`` or ``taking the pile with 'take 7 7'``."""
    if probe[0] == TAKE:
        return f"taking the pile with '{text(probe)}'"
    return f"'{text(probe)}'"


def who_must(c: Core) -> str:
    """Why the player must go out this turn."""
    if c.flags & F_YES:
        return "your partner said yes, so you must go out this turn"
    if c.flags & F_MUST_OUT and not c.flags & F_B3:
        return ("you took the pile below the initial minimum to go out concealed, "
                "so you must go out this turn")
    if c.flags & F_B3:
        return "you have melded black threes, so you must go out this turn"
    return ("you lengthened a sequence past its size, which is allowed only in the turn of going out, "
            "so you must go out this turn")


def freeze_cause(c: Core, side: int) -> str:
    """Why the pile is frozen for this side."""
    R = c.d.R
    if c.frozen:
        pile = pile_cards(c)
        if JK in pile or TWO in pile:
            return "the pile is frozen (a wild card in it)"
        if B3 in pile and B3 in R.freeze_discard | R.upcard_freezes:
            return "the pile is frozen (a black three in it)"
        if R3 in pile:
            return "the pile is frozen (a red three turned up in it)"
        return "the pile is frozen"
    return "the pile is frozen for your side until it makes its initial meld"


def frozen_ways_words(R: Rules, rank: int) -> str:
    """How a frozen pile may be taken."""
    ways = R.take_frozen
    parts = []
    if "natural_pair" in ways:
        parts.append(f"a natural pair of {PLURALS[rank]}")
    if "natural_and_wild" in ways:
        parts.append(f"a natural {NAMES[rank]} and a wild card")
    if "add_to_meld" in ways:
        parts.append(f"by adding it to your side's {meld_words(rank)}")
    if not parts:
        return "it may not be taken at all"
    return "take it only with " + " or ".join(parts)


def ways_words(ways: frozenset[str]) -> str:
    """How the pile may be taken, in words."""
    parts = []
    if "natural_pair" in ways:
        parts.append("with a natural pair of the top card's rank")
    if "natural_and_wild" in ways:
        parts.append("with one natural and one wild card")
    if "add_to_meld" in ways:
        parts.append("by adding the top card to a meld of your side")
    return " or ".join(parts) if parts else "in no way"


def _wild_limit_words(R: Rules) -> str:
    if R.ratio == "at_most_naturals":
        return f"wild cards may not outnumber the natural cards, and a meld holds at most {R.max_wild}"
    if R.ratio == "fewer_than_naturals":
        return f"a meld needs more natural cards than wild cards, and holds at most {R.max_wild} wild cards"
    if R.ratio == "at_most_half_naturals":
        return (f"a meld needs at least twice as many natural cards as wild cards, and holds at most "
                f"{R.max_wild} wild cards")
    return f"a meld holds at most {R.max_wild} wild cards"


def meld_shape_words(R: Rules, m: Meld) -> str:
    """Why the (new or grown) meld ``m`` is not valid (it is not)."""
    rank, nat, jk, tw, _r3 = m
    wilds = jk + tw
    size = nat + wilds
    if rank == WILD:
        if not R.wild_melds:
            return "wild cards may never be melded without natural cards"
        if R.deuce:
            # italian 4.3, digest A6
            return (f"a meld of deuces holds {num(R.min_size)} to {num(R.cs)} cards (it is closed at "
                    f"{num(R.cs)}), at least {num(R.min_nat)} deuces and at most "
                    f"{num(R.max_wild)} jokers; jokers alone are never melded")
        if size > R.wild_meld_max:
            return f"a meld of wild cards only holds at most {num(R.wild_meld_max)} cards"
        return f"a meld of wild cards needs at least {R.min_size} cards"
    if rank == B3:
        if wilds:
            return "black threes are melded without wild cards"
        if nat > R.b3_max:
            return f"a meld of black threes holds at most {R.b3_max}"
        if R.b3_min == R.b3_max:
            return f"black threes are melded only as a meld of exactly {R.b3_min}"
        return f"a meld of black threes needs at least {R.b3_min}"
    if nat < R.min_nat:
        return f"a meld needs at least {num(R.min_nat)} natural cards (this has {num(nat)})"
    if size < R.min_size:
        return f"a meld needs at least {num(R.min_size)} cards"
    if R.closed and size > R.cs:
        return f"a canasta is exactly {R.cs} cards and is then closed"
    cap = R.wild_cap(nat)
    if wilds > cap:
        have = f"(this would have {nat} natural and {wilds} wild)"
        if R.unlimited:
            if nat + cap >= R.cs:
                return (f"{_wild_limit_words(R)} until it is a completed canasta; "
                        f"complete the canasta first {have}")
            return (f"{_wild_limit_words(R)}; more wild cards may be added only to a "
                    f"completed canasta {have}")
        return f"{_wild_limit_words(R)} {have}"
    return "this is not a valid meld"  # pragma: no cover - valid() has no other rule


def go_out_words(c: Core, seat: int, have: int, short: Optional[tuple[int, ...]] = None) -> str:
    """The side lacks the canastas to go out."""
    R = c.d.R
    side = R.side_of[seat]
    who = "your side needs" if len(R.members[side]) > 1 else "you need"
    keep = f"keep at least {num(R.keep_out)} cards, one to discard"
    if R.kinds_needed is not None and short is not None and any(short[:4] + short[5::2]):
        # hand-and-foot 6.2: canastas by kind (pennies-from-heaven 7.1: and by rank)
        kinds = ("natural", "mixed", "wild", "sequence")
        parts = [f"{num(n)} more {kind}" for n, kind in zip(short[:4], kinds) if n]
        parts += [f"{num(short[i + 1])} more of {PLURALS[short[i]]}" for i in range(4, len(short), 2) if short[i + 1]]
        need = ", ".join([f"{num(n)} {kind}" for n, kind in zip(R.kinds_needed, kinds) if n]
                         + [f"{num(n)} of {PLURALS[rank]}" for rank, n in R.rank_needed])
        lack = f" (it lacks {' and '.join(parts)})" if parts else ""
        if R.canastas_needed > sum(R.kinds_needed) + sum(n for _rank, n in R.rank_needed):
            # bolivia 6.1: two canastas, among them a sequence
            return (f"{who} {canastas_words(R.canastas_needed)} to go out, among them {need} "
                    f"canasta{'s' if sum(R.kinds_needed) + len(R.rank_needed) > 1 else ''}{lack}: {keep}")
        return f"{who} {need} canastas to go out{lack}: {keep}"
    uncounted = ""
    if not R.count_all:
        # going_out.counted_kinds (italian 6.1: a canasta of wild cards does not count)
        names = [k for k, on in zip(("natural", "mixed", "wild", "sequence", "rank"), R.counted) if not on]
        uncounted = f"; a {' or '.join(names)} canasta does not count" if names else ""
    return (f"{who} {canastas_words(R.canastas_needed)} to go out (it has {num(have) if have else 'none'}"
            f"{uncounted}): {keep}")


def partner_words(c: Core, seat: int) -> str:
    """hand-and-foot 6.3: a partner has not picked up his down hand."""
    return "you may not go out before your partner plays from his foot (down hand)"


def initial_words(c: Core, count: int) -> str:
    """'initial meld needs 90, these melds count 60'."""
    R = c.d.R
    side = R.side_of[c.player]
    return f"initial meld needs {R.initial_need(c.totals[side], c.d.hand_number)}, these melds count {count}"


def no_out_words(c: Core, when: str = " this turn") -> str:
    """Why the player may not go out: his partner said no, or (brazilian 6.1) he has not asked
    and heard yes."""
    if c.flags & F_NO:
        return f"your partner said no, so you may not go out{when}"
    return f"you may not go out{when} without asking your partner \"may I go out?\" and hearing yes"


def _b3_words(c: Core, seat: int, melds2: tuple[Meld, ...]) -> str:
    R = c.d.R
    only = "black threes may be melded only when going out in the same turn"
    if c.flags & F_NO or (R.permission_required and not c.flags & F_YES):
        return f"{only}, and {no_out_words(c)}"
    if any(c.downs[seat]):
        return f"{only}, and you still have your down hand to play"
    have = side_canastas(R, melds2)
    if have < R.canastas_needed:
        return f"{only}: {go_out_words(c, seat, have)}"
    return f"{only}, and after melding them you could not meld the rest of your hand"


def _take_meld_words(c: Core, probe: Any, used: tuple[int, ...]) -> str:
    R = c.d.R
    side = R.side_of[c.player]
    melds = c.melds[side]
    top = probe[1]
    if top <= TWO:
        wild = [m for m in melds if m[0] == WILD]
        if wild and wild[0][2] + wild[0][3] + 3 > R.wild_meld_max:
            return (f"the three wild cards would go on your side's meld of wild cards, which holds at most "
                    f"{num(R.wild_meld_max)} cards")
        return "your side already has its meld of wild cards"
    same = [i for i in range(len(melds)) if melds[i][0] == top]
    nat = 1 + used.count(top)
    if probe[2] == W_ONTO:
        m = melds[same[probe[3] - 1]]
        nm = (m[0], m[1] + 1, m[2], m[3], m[4])
    elif not R.multi and any(R.blocks_new(melds[i]) for i in same):
        m = melds[next(i for i in same if R.blocks_new(melds[i]))]
        nm = (top, m[1] + nat, m[2] + used.count(JK), m[3] + used.count(TWO), m[4])
        if not R.valid(nm):
            return (f"your side already has a {meld_words(top)} and these cards would go on it: "
                    f"{meld_shape_words(R, nm)}")
    else:
        nm = (top, nat, used.count(JK), used.count(TWO), 0)
    if not R.valid(nm):
        return meld_shape_words(R, nm)
    return "the top card and these cards do not form a valid meld"


def _take_must_initial_words(c: Core, r: Reason) -> str:
    """A take for the initial meld after which a player bound to go out could not."""
    R = c.d.R
    _code, probe, count, h2, melds2, need, keep, may_out = r
    base = f"{who_must(c)}, and {initial_words(c, count)} (only the top card and the cards from your hand count)"
    if R.undo_take or reach(R, h2, melds2, need, keep):
        return (f"{base}: the rest of the pile comes into your hand only once the minimum is met, and after "
                f"{what_words(probe)} you could not both make up the minimum and then meld all your cards")
    why = f"{base}, and {short_words(R, h2, melds2, need, keep)}"
    if R.conc_min == "waived" and not (R.conc_basis == "player" and c.flags & F_HAD_MELDED) and may_out:
        why += "; nor could you go out concealed with the pile"
    return why


def short_words(R: Rules, h: bytes, melds: tuple[Meld, ...], rem: int, keep: int) -> str:
    """Why the rest of the hand cannot make up ``rem`` more points for the initial meld."""
    pts, _left = greedy(R, h, melds, True)
    if pts < rem:
        return f"the rest of your hand cannot make up the missing {rem} (at most {pts} more)"
    return f"the rest of your hand cannot make up the missing {rem} while keeping {num(keep)} cards"


def fallback_words(c: Core, probe: Any) -> str:
    """The generic answer, when no specific rule explains a refusal."""
    if c.flags & F_MUST:
        detail = "you must go out this turn"
    elif c.flags & F_NO or (c.d.R.permission_required and not c.flags & F_YES):
        detail = ("your partner said no" if c.flags & F_NO else "you have not heard yes to \"may I go out?\"")
        detail += ": you must keep cards to discard"
    else:
        detail = f"no way to end the turn after '{text(probe)}'"
    return f"{FALLBACK} ({detail})"


def words(c: Core, r: Reason) -> str:
    """The words of the reason ``r`` in the position ``c``."""
    R = c.d.R
    code = r[0]
    seat = c.player
    side = R.side_of[seat] if seat >= 0 else 0
    if code == TEXT:
        return str(r[1])
    if code == DRAW_NO_STOCK:
        if R.last_round:
            return "the stock is exhausted: take the pile or pass, then meld and discard"
        return "the stock is exhausted: take the pile or pass"
    if code == DRAW_MUST:
        return f"{who_must(c)}: drawing might not let you, so take the pile that lets you go out"
    if code == TAKE_RETRACTED:
        return "you retracted your take of the pile: now you must draw from the stock"
    if code == TAKE_EMPTY:
        return "the pile is empty"
    if code == TAKE_BLOCKED:
        if r[1] >= 4:
            # mexicana 3.3: a natural rank that blocks (pile.blocked_by), even for a natural pair of it
            return f"the pile is blocked by {a_card(r[1])} on top: it cannot be taken until another card covers it"
        return f"the pile is blocked by {a_card(r[1])} on top: it cannot be taken until a natural card covers it"
    if code == TAKE_CONSECUTIVE:
        return "you took the pile on your last turn: it may not be taken on two turns in a row"
    if code == TAKE_WAY:
        if r[1]:
            return f"{freeze_cause(c, side)}: {frozen_ways_words(R, r[2])}"
        return f"the pile may be taken only {ways_words(R.take_unfrozen)}"
    if code == TAKE_TOP:
        return f"the top card of the pile is {a_card(r[1])}, not {a_card(r[2])}"
    if code == TAKE_NO_MELD:
        return f"your side has no {meld_words(r[1])} to add the top {NAMES[r[1]]} to"
    if code == TAKE_ONLY:
        n = r[2]
        what = meld_words(r[1]) if n == 1 else f"melds of {PLURALS[r[1]]}"
        return f"your side has only {num(n)} {what}"
    if code == TAKE_UNOPENED:
        return "your side has not made its initial meld: the pile is frozen for it"
    if code == TWIN:
        return (f"your {ordinal(r[1])} {meld_words(r[3])} is just like the {ordinal(r[2])}: "
                f"play to that one ('{text(r[4])}'), which is the same play")
    if code == TAKE_CLOSED:
        return f"your canasta of {PLURALS[r[1]]} is closed: a canasta is exactly {R.cs} cards"
    if code == HELD_TAKE:
        held = held_words(c.hands[seat], r[1])
        if r[2]:
            held += f"; {freeze_cause(c, side)}, so a wild card will not do"
        return held
    if code == ONE_CARD:
        if r[1]:
            return ("with only one card in your hand you may not take a pile of only one card "
                    "(unless forced to, once the stock is exhausted)")
        return "with only one card in your hand you may not take a pile of only one card"
    if code == TAKE_MELD:
        return _take_meld_words(c, r[1], r[2])
    if code == TAKE_MUST_INITIAL:
        return _take_must_initial_words(c, r)
    if code == TAKE_SHORT:
        why = (f"{initial_words(c, r[1])} (only the top card and the cards from your hand count)"
               f", and {short_words(R, r[2], r[3], r[4], r[5])}")
        if (R.conc_min == "waived" and not (R.conc_basis == "player" and c.flags & F_HAD_MELDED) and r[6]
                and not any(c.downs[seat])):
            why += "; nor could you go out concealed with the pile"
        return why
    if code == PASS_STOCK:
        return "you may pass only when the stock is exhausted: draw or take the pile"
    if code == PASS_MUST_ANY:
        return "the stock is exhausted and you can take the pile, so you must take it"
    if code == PASS_MUST_ONTO:
        return ("the stock is exhausted and the top card can be added to a meld of your side, "
                "so you must take the pile")
    if code == FALLBACK_CODE:
        return fallback_words(c, r[1])
    if code == ASK_NO_PARTNER:
        return "you have no partner to ask \"may I go out?\""
    if code == ASK_AGAIN:
        return "you have already asked \"may I go out?\" this turn: the answer binds you"
    if code == ASK_STOCK:
        return "the stock is exhausted: take the pile or pass"
    if code == ASK_NOTHING:
        return "you could not go out this turn even with a yes, so there is nothing to ask"
    if code == ASK_AFTER_TAKE:
        return ("you may not ask \"may I go out?\" after taking the pile: ask before drawing "
                "or after drawing from the stock")
    if code == ASK_AFTER_MELD:
        return "you may not ask \"may I go out?\" after melding"
    if code == MUST_DOWN:
        return f"{who_must(c)}, and you still have your down hand to play"
    if code == MUST_MELD_ALL:
        return f"{who_must(c)}, and after {what_words(r[1])} you could not meld all your cards"
    if code == NO_KEEP:
        n = r[2]
        return (f"{no_out_words(c, '')}: after {what_words(r[1])} you would hold "
                f"{num(n)} card{'s' if n != 1 else ''}; keep at least {num(R.keep_out)}")
    if code == GO_OUT_CANASTAS:
        return go_out_words(c, r[1], r[2], r[3])
    if code == GO_OUT_UNFINISHED:
        what = "meld of wild cards" if r[2] == WILD else (
            f"meld of {PLURALS[r[2]]}" if r[2] in R.natural_only else f"natural meld of {PLURALS[r[2]]}")
        return (f"your side may not go out while its {what} is not a canasta: keep at least "
                f"{num(R.keep_out)} cards, one to discard")
    if code == OUT_BY_DISCARD:
        return (f"a player goes out only by discarding his last card: after {what_words(r[1])} you would "
                "hold none")
    if code == WILD_RULE:
        return str(r[1])
    if code == DEAD_RANK:
        return (f"{PLURALS[r[1]]} are dead: a side has completed a canasta of them, so nobody may meld "
                "them any more")
    if code == NATURAL_FIRST:
        # modern-american 4.9: checked on the turn's melds as a whole, laid in any order
        if r[1]:
            return ("your side's initial meld must include a meld of three or more natural cards without a "
                    "wild card, and after this you could not lay one and still finish your turn")
        return ("your side's initial meld must include a meld of three or more natural cards without a "
                "wild card: none of your melds this turn is one, so lay one before you end your turn")
    if code == INITIAL_COMP:
        # brazilian 7.2: from 7,000 the initial meld must include a canasta
        what = comp_canasta_words(r[1], r[2])
        if r[3]:
            return (f"at {num_points(c.totals[side])} your side's initial meld must include {what}, and after "
                    "this you could not complete one and still finish your turn")
        return (f"at {num_points(c.totals[side])} your side's initial meld must include {what}: none of your "
                "melds this turn is one, so you may not end your turn yet")
    if code == TAKE_DEAD:
        return (f"{PLURALS[r[1]]} are dead (a side has completed a canasta of them): the pile cannot be "
                "taken with one on top")
    if code == GO_OUT_PARTNER:
        return f"{partner_words(c, r[1])}: keep at least {num(R.keep_out)} cards, one to discard"
    if code == INITIAL_SHORT:
        return f"{initial_words(c, r[1])}, and {short_words(R, r[2], r[3], r[4], r[5])}"
    if code == B3_OUT:
        return _b3_words(c, r[1], r[3])
    if code == MUST_INITIAL:
        if r[3]:
            return f"{who_must(c)}, and after {what_words(r[2])} you could not meld all your cards"
        return (f"{who_must(c)}, and {initial_words(c, r[1])}: after {what_words(r[2])} the rest of your "
                "hand cannot both make up the minimum and go out")
    if code == INITIAL_SHORT_OUT:
        base = f"{initial_words(c, r[1])}, and {short_words(R, r[2], r[3], r[4], r[5])}"
        if r[6]:
            return f"{base}; nor could you go out concealed this turn"
        return f"{base}; nor could you go out this turn"
    if code == HELD:
        return held_words(r[1], r[2])
    if code == MELD_SHAPE:
        return meld_shape_words(R, r[1])
    if code == B3_EXISTS:
        return "your side already has a meld of black threes"
    if code == B3_INITIAL_TAKE:
        return "black threes may not be melded while taking the pile for your initial meld"
    if code == B3_LAST_CARDS:
        return ("black threes may be melded only as the last cards of your hand: the meld of them "
                "must be the play that goes out, with nothing left to discard")
    if code == B3_LAST:
        return "black threes may be melded only as your last meld before going out"
    if code == WILD_EXISTS:
        return "your side already has a meld of wild cards: add to it instead"
    if code == RANK_EXISTS:
        return f"your side already has a {meld_words(r[1])}: add to it instead (one meld per rank)"
    if code == ADD_NO_MELD:
        return f"your side has no {meld_words(r[1])}"
    if code == ADD_ONLY:
        if r[2] > 1:
            return f"your side has only {num(r[2])} melds of {rank_words(r[1])}"
        return f"your side has only one {meld_words(r[1])}"
    if code == B3_FULL:
        return f"a meld of black threes holds at most {R.b3_max}"
    if code == R3_NOT_CANASTA:
        return f"a red three may top only a completed natural canasta, and your {meld_words(r[1])} is not one"
    if code == R3_WILD:
        return f"a red three may top only a natural canasta; your canasta of {PLURALS[r[1]]} has wild cards"
    if code == R3_AGAIN:
        return f"your canasta of {PLURALS[r[1]]} already has a red three on top"
    if code == CLOSED:
        return f"your canasta of {rank_words(r[1])} is closed: a canasta is exactly {R.cs} cards"
    if code == INITIAL_CANASTA:
        return "a canasta may not be part of an initial meld: this would complete one"
    if code == COMBINE_NONE:
        return f"your side has {'no' if not r[2] else 'only one'} {meld_words(r[1])}: there is nothing to combine"
    if code == SAME_COMBINE:
        other = r[2]
        return (f"these melds of {rank_words(r[1])} are just like numbers {other[2]} and {other[3]}: "
                f"'{text(other)}' is the same play")
    if code == COMBINE_WILD:
        return (f"combined melds may include no more than {R.max_wild} wild cards; "
                f"these two hold {r[1]}")
    if code == DISCARD_OUT:
        if r[2] == GO_OUT_NO:
            g = no_out_words(c)
        elif r[2] == GO_OUT_PARTNER:
            g = partner_words(c, r[1])
        elif r[2] == GO_OUT_UNFINISHED:
            g = words(c, (GO_OUT_UNFINISHED, r[1], r[3])).split(": keep")[0]
        else:
            g = go_out_words(c, r[1], r[3], r[4])
        return f"discarding your last card would be going out: {g}"
    if code == DISCARD_INITIAL_OUT:
        return f"{initial_words(c, c.count)}: meld more before you discard"
    if code == DISCARD_CONCEALED_OWN:
        return (f"{initial_words(c, c.count)}; going out concealed instead, you must meld a complete canasta "
                "yourself")
    if code == DISCARD_MUST:
        return f"{who_must(c)}: meld your cards, keeping at most one to discard last"
    if code == DISCARD_INITIAL:
        return f"{initial_words(c, c.count)}: meld {r[1]} more before you discard"
    if code == RETRACT_REACH:
        need = max(0, R.initial_need(c.totals[side], c.d.hand_number) - c.count) if not c.opened[side] else 0
        return (f"you can still make your initial meld ({initial_words(c, c.count)}): retract the take "
                f"only when the {need} more can no longer be reached")
    if code == DONE_DISCARD:
        return "you can still discard, so end your turn with a discard"
    if code == DONE_NOT_FINAL:
        return "'done' is only for when the last card of the stock was a red three: end your turn with a discard"
    if code == B3_LAST_ONLY:
        return ("black threes may be melded only as your last meld before going out: "
                "nothing may follow them but the final discard")
    return f"{FALLBACK} (no rule found: reason {code})"  # pragma: no cover
