"""Legal actions and why an action is refused: one set of rule checks for both.

:func:`legal_ids` lists the legal action ids of a position in their fixed order;
:func:`problem` runs the checks for any action a user names, in the order a player would
(is anyone to act, is it the moment for this kind of action, does the variant have the
action at all, then the action's own checks) and returns the first failing one's reason,
or None when every check passes. The generators in ``_draw`` and ``_meld`` keep exactly the
actions whose checks pass, which the test suite verifies on sampled positions of every table.
"""

from __future__ import annotations

from typing import Optional

from . import _reasons as W
from ._draw import ask_first_problem, draw_phase_ids, draw_problem, pass_problem, take_problem
from ._kernel import (stock_left, F_B3, F_NO_TAKE, F_TOOK, PH_ANSWER, PH_DRAW, PH_FINAL_MELD, PH_GAME_OVER, PH_HAND_OVER,
                      PH_INITIAL_TAKE, PH_MELD, Core)
from ._discard import (ask_after_problem, b3_last_problem, discard_card_problem, discard_problem, done_problem,
                      retract_problem)
from ._meld import add_problem, combine_problem, held_problem, meld_problem
from ._meldphase import meld_phase_ids, suited_meld_phase_ids
from ._reasons import (PLURALS, Reason, a_card, meld_shape_words, meld_words, num, ordinal, rank_words,
                       ways_words, words)
from .._cards import SUIT_OF
from ._rules import (ADD, ANSWER, ASK, B3, COMBINE, DISCARD, DONE, DRAW, JK, KIND, MELD, PASS, R3, RETRACT, SEQ,
                     TAKE, TWO, W_ONTO,
                     WAY_SETTINGS, WILD, Rules, Spec)


def legal_ids(c: Core) -> list[int]:
    """Every legal action id of ``c``, in a fixed order; empty only when nobody is to act."""
    ph = c.phase
    if ph == PH_DRAW:
        return draw_phase_ids(c)
    if ph == PH_MELD or ph == PH_FINAL_MELD or ph == PH_INITIAL_TAKE:
        if c.d.R.suited:
            return suited_meld_phase_ids(c)
        return meld_phase_ids(c)
    if ph == PH_ANSWER:
        R = c.d.R
        return [R.id_yes, R.id_no]
    return []


def why(c: Core, probe: Spec) -> Optional[str]:
    """Why the action ``probe`` is refused in ``c``, in a player's words, or None if legal."""
    r = problem(c, probe)
    return None if r is None else words(c, r)


def problem(c: Core, probe: Spec) -> Optional[Reason]:
    """The first failing check's reason for ``probe`` in ``c``, or None if it is legal."""
    ph = c.phase
    if ph == PH_GAME_OVER:
        return (W.TEXT, "the game is over: nobody is to act")
    if ph == PH_HAND_OVER or c.player < 0:
        return (W.TEXT, "the hand is over: nobody is to act until the next hand is dealt")
    R = c.d.R
    kind = probe[0]
    text = phase_problem(c, probe)
    if text is not None:
        return (W.TEXT, text)
    if kind == DONE:
        return done_problem(c)
    if probe not in R.ids:
        return (W.TEXT, space_problem(R, probe))
    if (c.flags & F_B3 and R.b3_last and (ph == PH_MELD or ph == PH_FINAL_MELD)
            and kind in (MELD, ADD, COMBINE, ASK, DISCARD)):
        return b3_last_problem(c, probe)
    seat = c.player
    if kind == DRAW:
        return draw_problem(c)
    if kind == TAKE:
        return take_problem(c, seat, probe)
    if kind == MELD:
        return meld_problem(c, seat, probe)
    if kind == ADD:
        return add_problem(c, seat, probe)
    if kind == COMBINE:
        return combine_problem(c, seat, probe)
    if kind == DISCARD:
        return (held_problem(c.hands[seat], (probe[1],)) or discard_problem(c, seat)
                or discard_card_problem(c, seat, probe[1]))
    if kind == ASK:
        return ask_first_problem(c) if ph == PH_DRAW else ask_after_problem(c)
    if kind == PASS:
        return pass_problem(c)
    if kind == RETRACT:
        return retract_problem(c)
    if kind == ANSWER:
        return None
    return (W.TEXT, f"{probe!r} is not an action")


# ------------------------------------------------------------------ the moment for it


def phase_problem(c: Core, probe: Spec) -> Optional[str]:
    """Why this kind of action cannot be taken at this point of the turn, or None."""
    ph = c.phase
    R = c.d.R
    kind = probe[0]
    flags = c.flags
    if ph == PH_ANSWER:
        if kind == ANSWER:
            return None
        return "your partner has asked \"may I go out?\": the only actions now are yes or no"
    if kind == ANSWER:
        return "nobody has asked \"may I go out?\": there is nothing to answer"
    if ph == PH_DRAW:
        if kind in (DRAW, TAKE, ASK, PASS):
            return None
        if kind == RETRACT:
            if not R.undo_take:
                return "this variant has no retracting a take of the pile"
            if flags & F_NO_TAKE:
                return "you have already retracted your take: now draw from the stock"
            return "you have not taken the pile: there is nothing to retract"
        if kind == DONE:
            return ("'done' ends a turn only when the last card of the stock was a red three; "
                    "draw or take the pile first")
        if not stock_left(c) and kind in (MELD, ADD, COMBINE, DISCARD):
            return "the stock is exhausted: take the pile or pass first"
        return "draw or take the pile first"
    # after the draw: MELD, FINAL_MELD, INITIAL_TAKE
    took = "taken the pile" if flags & F_TOOK else "drawn"
    if ph == PH_FINAL_MELD and kind in (DRAW, TAKE, PASS):
        return "you have already drawn the last card of the stock, a red three: meld, then say 'done'"
    if kind in (DRAW, TAKE):
        if ph == PH_INITIAL_TAKE:
            return "you are already taking the pile: meld from your hand to reach the initial minimum"
        return f"you have already {took} this turn: meld, add or discard"
    if kind == PASS:
        if stock_left(c):
            return f"you have already {took} this turn; 'pass' only declines the pile when the stock is exhausted"
        return f"you have already {took} this turn: meld, add or discard"
    if ph == PH_INITIAL_TAKE:
        if kind == DISCARD:
            side = R.side_of[c.player]
            need = max(0, R.initial_need(c.totals[side], c.d.hand_number) - c.count)
            return (f"you are taking the pile for your initial meld: {W.initial_words(c, c.count)}; "
                    f"meld {need} more before you discard")
        if kind == ASK:
            return "you may not ask \"may I go out?\" after melding (you are taking the pile)"
        if kind == COMBINE:
            if not R.combine:
                return "this variant has no combining of melds"
            return "you may not combine melds while taking the pile for your initial meld"
        if kind == DONE:
            return "'done' is only for when the last card of the stock was a red three"
        return None
    if ph == PH_FINAL_MELD:
        if kind == DISCARD:
            return "the last card of the stock was a red three: you may meld but not discard; say 'done'"
        if kind == ASK:
            return "the last card of the stock was a red three: you may only meld, then say 'done'"
        if kind == RETRACT:
            return _retract_words(R)
        return None
    # MELD
    if kind == RETRACT:
        return _retract_words(R)
    return None


def _retract_words(R: Rules) -> str:
    if not R.undo_take:
        return "this variant has no retracting a take of the pile"
    return "there is no take of the pile for an initial meld to retract"


# ------------------------------------------------------------------ the action space


def space_problem(R: Rules, probe: Spec) -> str:
    """The variant has no such action at all (no id in its space): say why."""
    kind = probe[0]
    suits = _suit_space_words(R, probe)
    if suits is not None:
        return suits
    if kind == COMBINE:
        if probe[1] >= SEQ:
            return "sequences are never joined (samba digest A8): a sequence grows only at its ends"
        if not R.combine:
            return "this variant has no combining of melds"
        return f"your side cannot hold that many melds of {rank_words(probe[1])}"
    if kind in (ASK, ANSWER):
        return "this variant has no asking \"may I go out?\""
    if kind == TAKE:
        ways = R.take_unfrozen | R.take_frozen
        rank, way = probe[1], probe[2]
        if rank < 4:
            return f"{a_card(rank)} on top of the pile can never be taken"
        if not 0 <= way < len(WAY_SETTINGS) or WAY_SETTINGS[way] not in ways:
            return f"in this variant the pile is taken only {ways_words(ways)}"
        return f"your side can never hold a {ordinal(probe[3])} meld of {rank_words(rank)}"
    if kind == MELD:
        return _meld_space_words(R, probe[4])
    if kind == ADD:
        card, rank, number = probe[1], probe[2], probe[3]
        if rank == WILD:
            if not R.wild_melds:
                return "this variant has no melds of wild cards only"
            return f"only wild cards go on a meld of wild cards, not {a_card(card)}"
        if rank in (JK, TWO, R3) or (rank == B3 and R.b3_never):
            return f"there are no melds of {PLURALS[rank]}"
        if card == R3:
            if R.keep_r3:
                return "a red three may only top a closed natural canasta"
            return "red threes are never melded: they are faced as bonus cards"
        if rank == B3:
            if card != B3:
                return "black threes are melded without wild cards"
            if number > 1:
                return "your side has at most one meld of black threes"
            if R.b3_min == R.b3_max:
                return f"black threes are melded only as one meld of exactly {R.b3_min}, never added to"
            return "black threes may not be added to"
        if card != rank and card not in (JK, TWO):
            return f"{a_card(card)} cannot go on a {meld_words(rank)}"
        if number > 1:
            if not R.multi:
                return (f"your side may hold only one meld of each rank, so there is no "
                        f"{meld_words(rank, number)}")
            return f"your side can never hold a {ordinal(number)} meld of {rank_words(rank)}"
        return "this variant has no such addition"  # pragma: no cover
    if kind == DISCARD:
        return "there is no such card to discard"  # pragma: no cover
    return "this is not an action of this variant"


def _meld_space_words(R: Rules, cards: tuple[int, ...]) -> str:
    """Why a new meld of ``cards`` is not in the variant's action space."""
    if R.suited:
        words = _suited_space_words(R, cards)
        if words is not None:
            return words
    nats = [k for k in cards if k > TWO]
    wilds = [k for k in cards if k <= TWO and k != R3]
    if R3 in cards:
        if R.keep_r3:
            return "red threes are not melded: a red three may only top a closed natural canasta"
        return "red threes are never melded: they are faced as bonus cards"
    if len({KIND[k] for k in nats}) > 1:
        names = [PLURALS[k] for k in sorted({KIND[k] for k in nats}, reverse=True)]
        return f"a meld is of one rank: {', '.join(names[:-1])} and {names[-1]} cannot be melded together"
    if nats and nats[0] == B3:
        if R.b3_never:
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
            return f"lay a meld of wild cards as {num(R.min_size)} cards, then add the rest one at a time"
    m = (KIND[nats[0]] if nats else WILD, len(nats), wilds.count(JK), wilds.count(TWO), 0)
    if not R.valid(m):
        return meld_shape_words(R, m)
    return (f"lay a new meld as {num(R.min_size)} cards (a natural pair and a third card), "
            "then add the rest one at a time")



def _suit_space_words(R: Rules, probe: Spec) -> Optional[str]:
    """Why an action that names suits where a variant has none, or a natural without its suit
    where it has them, is not in the variant's space; None if neither."""
    kind = probe[0]
    cards = list(probe[4])
    if kind in (DISCARD, ADD):
        cards.append(probe[1])
    key = probe[2] if kind == ADD else probe[1] if kind in (TAKE, COMBINE) else -1
    if R.suited:
        bare_pair = kind == TAKE and probe[2] != W_ONTO and not probe[4] and probe[1] >= 4
        if bare_pair or any(4 <= k < 15 for k in cards):
            return ("in this variant natural cards are named with their suits (7h, 10s, Ac): for example "
                    "'discard 7h', 'take 7h 7s', 'add 7d to 7'")
        return None
    if any(k >= 15 for k in cards) or key >= SEQ:
        return ("cards have no suits in this variant, and there are no sequences: name a card by its rank, "
                "such as 'discard 7' or 'meld 7 7 7'")
    return None


def _suited_space_words(R: Rules, cards: tuple[int, ...]) -> Optional[str]:
    """Why ``cards`` are no new meld of a variant with sequences (melds.sequences), where the
    suits tell: a natural without its suit, or a would-be sequence (samba 4.3); None otherwise."""
    if any(4 <= k < 15 for k in cards):
        return "in this variant natural cards are named with their suits (7h, 10s, Ac)"
    nats = [k for k in cards if k >= 15]
    if len({KIND[k] for k in nats}) < 2:
        return None
    if len(nats) < len(cards):
        return "a sequence holds natural cards only: no wild card and no three (samba 4.3)"
    if len({SUIT_OF[k] for k in nats}) > 1:
        return "a sequence must be one suit (samba 4.3)"
    ranks = sorted(KIND[k] for k in nats)
    if any(ranks[i + 1] != ranks[i] + 1 for i in range(len(ranks) - 1)):
        return "a sequence's cards are of consecutive ranks, with no gap or repeat; the ace is high only (samba 4.3)"
    if ranks[0] < R.seq_lo or ranks[-1] > R.seq_hi:
        return f"a sequence runs from {R.variant.melds.sequences.lowest} to {R.variant.melds.sequences.highest}"
    return f"lay a new sequence as {num(R.seq_min)} cards, then add the rest one at a time at either end"
