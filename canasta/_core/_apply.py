"""Applying an action: the next position, and the turn flow (draws, red threes, the next
player, the end of the hand).

:func:`apply_id` copies the core it is given and changes only the copy, so every position
handed out stays as it was. It trusts its caller: the id must be legal (see ``_legal``).
"""

from __future__ import annotations

from .._cards import N_KINDS, SUIT_OF
from ._draw import take_ok_problem, take_options, take_reaches, take_result_meld, used_cards
from ._finish import arriving, keep_for, may_go_out
from ._kernel import (FOOT, F_NATURAL, F_ASKED, F_B3, F_DREW, F_HAD_MELDED, F_MELDED, F_MUST_OUT, F_NO, F_NO_TAKE, F_OWN,
                      F_TOOK, F_TOUCHED, F_YES, PH_ANSWER, PH_DRAW, PH_FINAL_MELD, PH_GAME_OVER,
                      PH_HAND_OVER, PH_INITIAL_TAKE, PH_MELD, Core, Hand, Result, meld_index, pile_cards, pile_of, reserved,
                      set_at, stock_left,
                      set_flag_at,
                      set_hand)
from ._canastas import side_canastas
from ._opening import has_clean
from ._rules import (ADD, ANSWER, ASK, B3, COMBINE, DISCARD, DONE, DRAW, JK, MELD, PASS, R3, RETRACT, TAKE, TWO,
                     KIND, SEQ, W_ONTO, WILD, Meld, Rules, Spec, seq_low, seq_rank)
from ._score import score_hand, side_total

EMPTY = bytes(N_KINDS)


def apply_id(c: Core, action: int) -> Core:
    """The position after the legal action ``action`` (an id)."""
    R = c.d.R
    n = c.copy()
    n.history = (action, c.history, c.player)
    spec = R.specs[action]
    kind = spec[0]
    seat = c.player
    side = R.side_of[seat]
    if kind == DISCARD:
        card = spec[1]
        h = bytearray(c.hands[seat])
        h[card] -= 1
        if card > 14:
            h[(card + 1) >> 2] -= 1
        n.hands = set_hand(c.hands, seat, bytes(h))
        n.pile = (card, c.pile)
        n.pile_n = c.pile_n + 1
        if card in R.freeze_discard:
            n.frozen = True
        if not any(h) and not any(c.downs[seat]):
            end_hand(n, seat, "went out")
        else:
            finish_turn(n)
        return n
    if kind == DRAW:
        n.flags = c.flags | F_DREW
        n.phase = PH_MELD
        draw_cards(n, seat, R.draw_n)
    elif kind == MELD:
        cards = spec[4]
        h = bytearray(c.hands[seat])
        gain = 0
        nat = 0
        vals = R.values
        for k in cards:
            h[k] -= 1
            if k > 14:
                h[(k + 1) >> 2] -= 1
            gain += vals[k]
            if k > TWO:
                nat += 1
        n.hands = set_hand(c.hands, seat, bytes(h))
        first = cards[0]
        rank = WILD if first <= TWO else KIND[first]
        if first > 14 and KIND[cards[1]] != rank:
            # a sequence (cards in rank order, lowest first)
            rank = seq_rank(SUIT_OF[first], rank)
        nm: Meld = (rank, nat, cards.count(JK), cards.count(TWO), 0)
        melds2 = c.melds[side] + (nm,)
        gain_turn(n, c, side, gain, melds2, len(melds2) - 1, False)
        if rank == B3:
            n.flags |= F_B3
    elif kind == ADD:
        card, rank, number = spec[1], spec[2], spec[3]
        h = bytearray(c.hands[seat])
        h[card] -= 1
        if card > 14:
            h[(card + 1) >> 2] -= 1
        n.hands = set_hand(c.hands, seat, bytes(h))
        melds = c.melds[side]
        i = meld_index(melds, rank, number)
        m = melds[i]
        if card == R3:
            nm = (m[0], m[1], m[2], m[3], 1)
        elif rank >= SEQ:
            nm = (min(m[0], m[0] - seq_low(m[0]) + KIND[card]), m[1] + 1, 0, 0, 0)
        else:
            nm = (m[0], m[1] + (KIND[card] == m[0] or card == B3), m[2] + (card == JK), m[3] + (card == TWO), m[4])
        melds2 = melds[:i] + (nm,) + melds[i + 1:]
        gain = 0 if card == R3 else R.values[card]
        gain_turn(n, c, side, gain, melds2, i, i < c.melds_before)
        if rank == B3:
            n.flags |= F_B3
    elif kind == TAKE:
        apply_take(n, c, seat, side, spec[2], spec[3], spec)
    elif kind == COMBINE:
        rank, first, second = spec[1], spec[2], spec[3]
        melds = c.melds[side]
        i = meld_index(melds, rank, first)
        j = meld_index(melds, rank, second)
        m1 = melds[i]
        m2 = melds[j]
        new = list(melds)
        new[i] = (rank, m1[1] + m2[1], m1[2] + m2[2], m1[3] + m2[3], 0)
        del new[j]
        n.set_melds(side, tuple(new))
        before = c.melds_before
        if i < before:
            n.flags |= F_TOUCHED
        if j < before:
            before -= 1
        n.melds_before = before
    elif kind == ASK:
        n.flags = c.flags | F_ASKED
        n.phase = PH_ANSWER
        n.player = partner(c, seat)
    elif kind == ANSWER:
        n.player = asker(c, seat)
        n.flags = c.flags | (F_YES if spec[1] else F_NO)
        n.phase = PH_MELD if c.flags & (F_DREW | F_TOOK) else PH_DRAW
        return n
    elif kind == PASS:
        if R.last_round:
            n.phase = PH_MELD
        else:
            end_hand(n, -1, "the stock is exhausted and the player in turn did not take the pile")
    elif kind == DONE:
        if c.phase == PH_FINAL_MELD:
            end_hand(n, -1, "the last card of the stock was a red three")
        else:
            finish_turn(n)
        return n
    elif kind == RETRACT:
        # new-canasta: "he takes the pair back into his hand and returns the third card ...
        # back to the discard pile. The player has not officially discarded, but must draw"
        n.hands = set_hand(c.hands, seat, c.start_hand)
        n.set_melds(side, c.melds[side][: c.melds_before])
        below = pile_cards(c)  # what a take of the top cards only left (pile.take_top)
        n.pile = pile_of(below + c.pending + (c.pending_top,))
        n.pile_n = len(below) + len(c.pending) + 1
        n.flags = (c.flags & F_HAD_MELDED) | F_NO_TAKE
        n.count = 0
        n.pending = ()
        n.pending_top = -1
        n.start_hand = b""
        n.phase = PH_DRAW
        n.melded = set_flag_at(c.melded, seat, bool(c.flags & F_HAD_MELDED))
        n.took_last = set_flag_at(c.took_last, seat, False)
    else:  # pragma: no cover - ids come from the action space
        raise ValueError(f"not an action id: {action!r}")
    if R.natural_first and c.melds_before == 0 and (kind == MELD or kind == ADD or kind == TAKE or kind == COMBINE):
        # the turn's fact (modern-american 4.9): the initial meld, as its melds stand, includes a
        # meld of three or more naturals without a wild card
        n.flags = (n.flags | F_NATURAL) if has_clean(n.melds[side]) else (n.flags & ~F_NATURAL)
    if R.down_up and (kind == MELD or kind == ADD or kind == TAKE or kind == COMBINE) and n.result is None:
        down_up(n, c, seat, side)
    if (n.phase == PH_MELD or n.phase == PH_FINAL_MELD) and n.player == seat:
        check_emptied(n, seat)
    return n


def down_up(n: Core, c: Core, seat: int, side: int) -> None:
    """pennies-from-heaven 5.1 (``deal.down_hand_up``): a canasta completed by this action brings up
    the player's down hand (``own_canasta``), or, the side's first, every down hand of the side
    (``side_canasta``), into the hand at once; red threes in it are faced and replaced."""
    R = n.d.R
    before = side_canastas(R, c.melds[side])
    if side_canastas(R, n.melds[side]) <= before:
        return
    if R.down_up == 1:
        seats: tuple[int, ...] = (seat,)
    elif before == 0:
        seats = R.members[side]
    else:
        return
    for s in seats:
        if any(n.downs[s]) and n.result is None:
            if R.partner_down:
                n.turned |= 1 << (FOOT + s)
            take_up_down(n, s)


def take_up_down(n: Core, seat: int) -> bool:
    """``seat``'s down hand joins the cards in his hand (``deal.down_hand_up``); red threes in it
    are faced and replaced at once. False if that ended the hand."""
    h = bytearray(n.hands[seat])
    for k, x in enumerate(n.downs[seat]):
        h[k] += x
    n.hands = set_hand(n.hands, seat, bytes(h))
    n.downs = set_hand(n.downs, seat, bytes(len(n.downs[seat])))
    if seat == n.player:
        # the hand before a take (kept to undo one, which deal.down_hand_up's variants never do)
        # is no longer the hand less the pile: the down hand has joined it
        n.start_hand = b""
    R = n.d.R
    if (not R.keep_r3 and h[R3]) or (R.b3_faced and h[B3]):
        return face_threes(n, seat, R.side_of[seat])
    return True


def partner(c: Core, seat: int) -> int:
    """The partner asked "may I go out?": the next seat of the side playing this deal."""
    R = c.d.R
    side = R.side_of[seat]
    order = c.d.active
    i = order.index(seat)
    for k in range(1, len(order)):
        s = order[(i + k) % len(order)]
        if R.side_of[s] == side:
            return s
    return seat


def asker(c: Core, me: int) -> int:
    """The player who asked "may I go out?" (the partner answering is ``me``)."""
    R = c.d.R
    side = R.side_of[me]
    order = c.d.active
    i = order.index(me)
    for k in range(1, len(order)):
        s = order[(i - k) % len(order)]
        if R.side_of[s] == side:
            return s
    return me


def gain_turn(n: Core, c: Core, side: int, gain: int, melds2: tuple[Meld, ...], idx: int, touched: bool) -> None:
    """Record a meld or addition: the side's melds, the count toward its initial meld, and
    whether that opens the side (bringing up a pile set aside for it)."""
    R = n.d.R
    seat = c.player
    opened = c.opened[side]
    count = n.count + (0 if opened else gain)
    flags = n.flags | F_MELDED
    if touched:
        flags |= F_TOUCHED
    if idx >= n.melds_before and R.is_canasta(melds2[idx]):
        flags |= F_OWN
    n.flags = flags
    n.count = count
    if len(melds2) > len(n.melds[side]):
        n.append_meld(side, melds2)
    else:
        n.grow_meld(side, melds2, idx)
    n.melded = set_flag_at(n.melded, seat, True)
    if not opened and count >= R.initial_need(c.totals[side], c.d.hand_number):
        n.opened = set_flag_at(n.opened, side, True)
        if c.phase == PH_INITIAL_TAKE:
            pending = n.pending
            n.pending = ()
            pick_up(n, seat, side, pending)
            n.phase = PH_MELD
        if R.talon_now:
            talon_at_once(n, seat, side)


def apply_take(n: Core, c: Core, seat: int, side: int, way: int, number: int, spec: Spec) -> None:
    """Take the pile: meld the top card with the cards shown, or set the pile aside for an
    initial meld until the minimum is met (hoyle rule 33)."""
    R = c.d.R
    pile = pile_cards(c)
    if R.take_top and len(pile) > R.take_top:
        # hand-and-foot 3.2: only the top cards come; the rest of the pile stays
        left = pile[:-R.take_top]
        pile = pile[-R.take_top:]
        n.pile = pile_of(left)
        n.pile_n = len(left)
        n.frozen = c.frozen
    else:
        n.pile = None
        n.pile_n = 0
        n.buried = 0
        n.frozen = False
    top = pile[-1]
    used = spec[4] or used_cards(top, way)
    n.took_last = set_flag_at(c.took_last, seat, True)
    opened = c.opened[side]
    if not R.pair_melded and opened:
        n.flags = c.flags | F_TOOK
        n.phase = PH_MELD
        pick_up(n, seat, side, pile)
        return
    melds2, idx = take_result_meld(R, c.melds[side], top, way, number, used, spec[1])
    h = bytearray(c.hands[seat])
    for k in used:
        h[k] -= 1
        if k > 14:
            h[(k + 1) >> 2] -= 1
    h2 = bytes(h)
    n.hands = set_hand(c.hands, seat, h2)
    if len(melds2) > len(c.melds[side]):
        n.append_meld(side, melds2)
    else:
        n.grow_meld(side, melds2, idx)
    n.melded = set_flag_at(c.melded, seat, True)
    vals = R.values
    gain = vals[top]
    for k in used:
        gain += vals[k]
    flags = c.flags | F_TOOK | F_MELDED
    if way == W_ONTO and idx < c.melds_before:
        flags |= F_TOUCHED
    if R.is_canasta(melds2[idx]) and idx >= c.melds_before:
        flags |= F_OWN
    count = c.count + (0 if opened else gain)
    n.count = count
    # the hand before the take, for a take undone (pile.failed_initial_take = "undo"); not kept
    # where cards lie buried in the pile (upcard.buried, which refuses "undo"): the hand would
    # then tell the buried cards taken, which nobody else has seen
    n.start_hand = b"" if R.buried else c.hands[seat]
    n.pending_top = top
    need = 0 if opened else R.initial_need(c.totals[side], c.d.hand_number)
    rest = pile[:-1]
    if opened or count >= need:
        if not opened:
            n.opened = set_flag_at(c.opened, side, True)
        n.flags = flags
        pick_up(n, seat, side, rest)
        n.phase = PH_MELD
        if R.talon_now and not opened:
            talon_at_once(n, seat, side)
    elif not R.undo_take and not take_reaches(c, side, h2, melds2, need - count,
                                              max(0, keep_for(c, seat) - arriving(R, rest))):
        # taken for a concealed going out below the minimum: the pile comes up at once
        n.flags = flags | F_MUST_OUT
        pick_up(n, seat, side, rest)
        n.phase = PH_MELD
    else:
        n.flags = flags
        n.pending = rest
        n.phase = PH_INITIAL_TAKE


def talon_at_once(n: Core, seat: int, side: int) -> None:
    """mexicana 4.2 (``deal.talon_when = "at_once"``): the player whose meld just made his side's
    initial meld draws the side's talon at once (A4), also after a pile opening where
    ``deal.talon_after_pile`` says so (A5); a short stock gives what it holds (A8). Not for a
    player who took the pile to go out concealed below the minimum: he must go out this turn."""
    R = n.d.R
    if n.flags & F_MUST_OUT or (n.flags & F_TOOK and not R.talon_pile) or n.stock_n <= R.turn_card:
        return
    others = sum(1 for s in range(R.n_sides) if s != side and n.opened[s])
    if others < len(R.talon) and R.talon[others]:
        # the hand before a take no longer matters (the side has opened: no retract), and no
        # longer tells what was taken (resample: hidden cards came since)
        n.start_hand = b""
        draw_cards(n, seat, R.talon[others], 0)


def pick_up(n: Core, seat: int, side: int, cards: tuple[int, ...]) -> None:
    """Cards of the pile come into the hand; a red three in it is faced but not replaced
    (hoyle rule 14), a black three set aside where the variant says so (cuban)."""
    R = n.d.R
    h = bytearray(n.hands[seat])
    red = 0
    black = 0
    keep = R.keep_r3
    b3_aside = R.b3_aside or R.b3_faced
    for k in cards:
        if k == R3 and not keep:
            red += 1
        elif k == B3 and b3_aside:
            black += 1
        else:
            h[k] += 1
            if k > 14:
                h[(k + 1) >> 2] += 1
    n.hands = set_hand(n.hands, seat, bytes(h))
    if red:
        n.red = set_at(n.red, side, n.red[side] + red)
    if black:
        n.aside = set_at(n.aside, side, n.aside[side] + black)


def draw_cards(n: Core, seat: int, count: int, floor: int = -1) -> bool:
    """Draw ``count`` cards, facing and replacing red threes (and black threes where they are
    bonus cards too), down to ``floor`` cards left at most (-1: the talon packets set aside). False
    if the hand ended."""
    R = n.d.R
    stock = n.d.stock
    k = n.stock_n
    if floor < 0:
        floor = reserved(n) if R.talon_aside else 0
    h = bytearray(n.hands[seat])
    side = R.side_of[seat]
    red = 0
    black = 0
    drawn = 0
    last = -1  # the last card drawn, where it was a three faced
    r3_faced = not R.keep_r3
    b3_faced = R.b3_faced
    while drawn < count and k > floor:
        k -= 1
        card = stock[k]
        if card == R3 and r3_faced:
            red += 1
            last = card
            continue
        if card == B3 and b3_faced:
            black += 1
            last = card
            continue
        last = -1
        h[card] += 1
        if card > 14:
            h[(card + 1) >> 2] += 1
        drawn += 1
    n.stock_n = k
    three_last = -1
    if last >= 0 and k <= floor and R.last_three_minus:
        # modern-american 7.5: a three drawn as the stock's last card is laid out but scores
        # apart: (side, kind)
        three_last = side * 16 + last
    if red:
        n.red = set_at(n.red, side, n.red[side] + red)
    if black:
        n.aside = set_at(n.aside, side, n.aside[side] + black)
    n.hands = set_hand(n.hands, seat, bytes(h))
    if k <= floor and R.last_round and n.last_turns < 0:
        n.last_turns = len(n.d.active)
    if last >= 0 and k <= floor:
        # the last card of the stock was a red three
        if R.last_r3 == "end":
            end_hand(n, -1, "the last card of the stock was a red three" if last == R3 else
                     "the last card of the stock was a black three", three_last)
            return False
        n.phase = PH_FINAL_MELD
    return True


def begin_turn(n: Core, seat: int) -> None:
    """Start ``seat``'s turn: face red threes (hoyle rule 13), count the last round, end the
    hand when the stock is out and he cannot take the pile (hoyle rule 35)."""
    R = n.d.R
    n.player = seat
    n.phase = PH_DRAW
    side = R.side_of[seat]
    n.flags = F_HAD_MELDED if n.melded[seat] else 0
    if R.partner_down and R.down_size and not any(n.downs[seat]):
        # hand-and-foot 6.3: he now plays from his foot (picked up at the end of his last turn)
        n.turned |= 1 << (FOOT + seat)
    n.count = 0
    n.melds_before = len(n.melds[side])
    n.pending = ()
    n.pending_top = -1
    n.start_hand = b""
    h = n.hands[seat]
    if (not R.keep_r3 and h[R3]) or (R.b3_faced and h[B3]):
        # hoyle rule 13: at his first turn each player faces his red threes and replaces them
        # (modern-american 2.4: threes of both colours)
        if not face_threes(n, seat, side):
            return
        if n.phase == PH_FINAL_MELD:
            return
    if R.last_round and n.last_turns >= 0:
        if n.last_turns == 0:
            end_hand(n, -1, "the stock ran out and every player has had a last turn")
            return
        n.last_turns -= 1
    if stock_left(n) if R.talon_aside else n.stock_n:
        return
    if R.stock_ends:
        # hand-and-foot 7.4: "if the stock runs out, the deal ends" (nobody takes the pile)
        end_hand(n, -1, "the stock is exhausted: the hand ends")
        return
    if not R.last_round:
        # forcing (hoyle rule 35): the hand ends when the player in turn cannot take the pile
        for t in take_options(n, seat):
            if take_ok_problem(n, seat, t, False, may_go_out(n)) is None:
                return
        end_hand(n, -1, "the stock is exhausted and the player in turn cannot take the pile")


def finish_turn(n: Core) -> None:
    """The turn is over: the next active seat begins."""
    R = n.d.R
    seat = n.player
    # new-canasta: "A player is not allowed to pick up the Deck on 2 consecutive turns"
    n.took_last = set_flag_at(n.took_last, seat, bool(n.flags & F_TOOK))
    if R.track_turns:
        n.turned |= 1 << seat
    if R.talon and not R.talon_now and n.melds_before == 0 and (R.talon_aside or R.talon_pile
                                                                  or not n.flags & F_TOOK):
        side = R.side_of[seat]
        if n.opened[side] and (R.talon_aside or n.stock_n > R.turn_card):
            # modern-american 2.5: the talon, after the discard of the turn the side first melded
            # (A2, talon_set_aside: the side's packet set aside at the deal, however it melded)
            others = sum(1 for s in range(R.n_sides) if s != side and n.opened[s])
            if others < len(R.talon) and R.talon[others]:
                floor = reserved(n) - R.talon[others] if R.talon_aside else 0
                if not draw_cards(n, seat, R.talon[others], floor):
                    return
                if n.phase == PH_FINAL_MELD:  # his turn is over: nothing more to meld
                    end_hand(n, -1, "the last card of the stock was a red three")
                    return
    if R.down_size and not any(n.hands[seat]) and any(n.downs[seat]):
        # new-canasta: a player who discards his last looking card picks up his down hand
        if not pick_up_down(n, seat):
            return
        if n.phase == PH_FINAL_MELD:  # his turn is over: nothing more to meld
            end_hand(n, -1, "the last card of the stock was a red three")
            return
    if R.last_round and n.last_turns == 0 and not stock_left(n):
        end_hand(n, -1, "the stock ran out and every player has had a last turn")
        return
    active = n.d.active
    begin_turn(n, active[(active.index(seat) + 1) % len(active)])


def check_emptied(n: Core, seat: int) -> None:
    """A hand emptied by melding: the down hand comes up, or the player has gone out."""
    if any(n.hands[seat]):
        return
    if any(n.downs[seat]):
        if n.d.R.partner_down:
            n.turned |= 1 << (FOOT + seat)  # hand-and-foot 6.1: he goes on playing from it
        pick_up_down(n, seat)
        return
    end_hand(n, seat, "went out")


def face_threes(n: Core, seat: int, side: int) -> bool:
    """Face the bonus threes in ``seat``'s hand and replace them from the stock; False if that
    ended the hand."""
    R = n.d.R
    h = bytearray(n.hands[seat])
    r3 = 0 if R.keep_r3 else h[R3]
    b3 = h[B3] if R.b3_faced else 0
    h[R3] -= r3
    h[B3] -= b3
    n.hands = set_hand(n.hands, seat, bytes(h))
    if r3:
        n.red = set_at(n.red, side, n.red[side] + r3)
    if b3:
        n.aside = set_at(n.aside, side, n.aside[side] + b3)
    return draw_cards(n, seat, r3 + b3)


def pick_up_down(n: Core, seat: int) -> bool:
    """``seat`` picks up his down hand; red threes in it (as bonus cards) are faced and
    replaced from the stock at once (hand-and-foot 2.4: "when they come into the hand").
    False if that ended the hand (the stock's last card was a red three)."""
    n.hands = set_hand(n.hands, seat, n.downs[seat])
    n.downs = set_hand(n.downs, seat, bytes(len(n.downs[seat])))
    if seat == n.player and not n.d.R.undo_take:
        # as in take_up_down: the hand before a take no longer tells the pile's cards (the down
        # hand, unseen by the others, came since), and a resample must not read it; kept where a
        # take can be undone (new-canasta), which puts that hand back
        n.start_hand = b""
    h = n.hands[seat]
    R = n.d.R
    if (not R.keep_r3 and h[R3]) or (R.b3_faced and h[B3]):
        return face_threes(n, seat, R.side_of[seat])
    return True


def is_concealed(n: Core, seat: int) -> bool:
    """Whether going out now is going out concealed (the whole hand melded in one turn), per the
    variant's definition (``going_out.concealed``), whether or not a bonus is paid for it."""
    R = n.d.R
    flags = n.flags
    if R.conc_side:
        # wikipedia: "makes their team's initial meld and goes out legally in the same turn"
        return n.melds_before == 0
    if flags & F_HAD_MELDED:
        return False
    if R.conc_no_partner and flags & F_TOUCHED:
        return False
    if R.conc_own and not flags & F_OWN:
        return False
    return True


def _credit(R: Rules, hands: tuple[Hand, ...], counts: tuple[int, ...], kind: int
            ) -> tuple[tuple[Hand, ...], tuple[int, ...]]:
    """``hands`` without their cards of ``kind``, and ``counts`` per side with them added."""
    for seat in range(R.players):
        h = hands[seat]
        k = h[kind]
        if k:
            hands = set_hand(hands, seat, h[:kind] + b"\0" + h[kind + 1:])
            side = R.side_of[seat]
            counts = set_at(counts, side, counts[side] + k)
    return hands, counts


def end_hand(n: Core, went_out: int, reason: str, three_last: int = -1) -> None:
    """Score the hand and add it to the totals; the game is over when a side reaches the target.
    ``three_last``: ``side * 16 + kind`` of a three drawn as the stock's last card, where it
    scores apart (``stock_exhausted.last_three_minus``), else -1."""
    R = n.d.R
    # bonus threes still in a hand (a player who never had a turn) belong to the side, unless
    # the variant charges for them there (hand-and-foot, modern-american 7.5)
    if not R.keep_r3 and not R.r3_penalty:
        n.hands, n.red = _credit(R, n.hands, n.red, R3)
    if R.b3_faced and not R.b3_penalty:
        n.hands, n.aside = _credit(R, n.hands, n.aside, B3)
    concealed = False
    bonus_seat = went_out
    if went_out >= 0:
        if n.phase == PH_FINAL_MELD or (R.last_round and not stock_left(n)):
            # hoyle rule 41 / new-canasta: no going-out bonus once the stock is used up
            bonus_seat = -1
            reason = "went out after the stock ran out (no going-out bonus)"
        else:
            concealed = is_concealed(n, went_out)
    scores = score_hand(n, bonus_seat, concealed, three_last)
    n.result = Result(went_out, concealed, scores, reason)
    n.totals = tuple(t + side_total(s) for t, s in zip(n.totals, scores))
    n.player = -1
    n.flags = 0
    n.count = 0
    n.melds_before = 0
    n.pending = ()
    n.pending_top = -1
    n.start_hand = b""
    top = max(n.totals)
    if top >= R.target or (R.hands_limit and n.d.hand_number + 1 >= R.hands_limit):
        n.phase = PH_GAME_OVER
        n.winners = tuple(i for i, t in enumerate(n.totals) if t == top)
    else:
        n.phase = PH_HAND_OVER
