"""A short, plain-text view of the table: what ``canasta demo`` prints after each turn.

:func:`table_view` gives a few lines: the hand, who is to play, the scores, each side's red
threes and melds (canastas marked), the pile (its top card, its size, whether it is frozen),
the stock, and how many cards each player holds. With a ``seat``, that player's own hand is
shown too; without one, no hand is (the view shows only what everyone at the table sees).

Built on the states (``_state``); fills ``GameState.__str__``'s slot. The CLI is built on it.
"""

from __future__ import annotations

from typing import Optional

from . import _state
from ._cards import _TOKENS, CODE_TOKENS, N_KINDS, SEQUENCE_RANK, SUIT_NAMES, WILD_RANK, cards_text
from ._fields import Phase, TableMeld
from ._state import GameState
from ._variant import Variant

__all__ = ["table_view"]


def side_letters(state: GameState) -> list[str]:
    """The sides' letters as the variant's table names them (``A``, ``B``, ...), by side number."""
    return sorted(set(state.variant.table(state.players).sides))


def canasta_kind(meld: TableMeld, variant: Optional[Variant]) -> str:
    """``" (natural canasta)"`` and the like when ``meld`` is a canasta under ``variant``'s
    rules, else ``""``."""
    if variant is None:
        return ""
    rules = variant.melds
    if meld.rank >= SEQUENCE_RANK:
        # (as the core's Rules.is_canasta: a sequence of canasta_size cards)
        return " (sequence canasta)" if meld.naturals >= max(rules.canasta_size, rules.canasta_min_naturals) else ""
    if meld.size < rules.canasta_size:
        return ""
    if meld.rank == WILD_RANK:
        return " (wild canasta)"
    if meld.naturals < rules.canasta_min_naturals:
        return ""
    return " (natural canasta)" if meld.wilds == 0 else " (mixed canasta)"


def melds_text(melds: tuple[TableMeld, ...], variant: Optional[Variant] = None) -> str:
    """A side's melds, canastas marked; each sequence is named by its suit and, where a side
    holds two melds of one rank or two sequences of one suit, each is numbered, as ``add`` and
    ``take onto`` name them (``hearts: 5h 6h 7h``, ``7#2: 7 7 7``, ``add 8h to hearts``)."""
    ranks = [m.rank for m in melds]
    parts = []
    for i, m in enumerate(melds):
        text = f"{m}{canasta_kind(m, variant)}"
        name = ("wild" if m.rank == WILD_RANK else SUIT_NAMES[m.rank - SEQUENCE_RANK]
                if m.rank >= SEQUENCE_RANK else _TOKENS[m.rank])
        if ranks.count(m.rank) > 1:
            text = f"{name}#{ranks[:i + 1].count(m.rank)}: {text}"
        elif m.rank >= SEQUENCE_RANK:
            text = f"{name}: {text}"
        parts.append(text)
    return "; ".join(parts)


def _compact_meld(m: TableMeld, variant: Variant) -> str:
    """A meld in a few characters: ``7x5+JK`` (five sevens and a joker), ``wild(JKx2+2)``
    (a meld of wild cards), ``5h-9h`` (a sequence), canastas marked ``[natural]``, ``[mixed]``,
    ``[wild]`` or ``[sequence]``."""
    if m.rank >= SEQUENCE_RANK:
        cards = m.cards
        text = f"{CODE_TOKENS[cards[0]]}-{CODE_TOKENS[cards[-1]]}"
    elif m.rank == WILD_RANK:
        wilds = []
        if m.jokers:
            wilds.append(f"JKx{m.jokers}" if m.jokers > 1 else "JK")
        if m.twos:
            wilds.append(f"2x{m.twos}" if m.twos > 1 else "2")
        text = "wild(" + "+".join(wilds) + ")"
    else:
        text = f"{_TOKENS[m.rank]}x{m.naturals}"
        if m.jokers:
            text += "+JK" + (f"x{m.jokers}" if m.jokers > 1 else "")
        if m.twos:
            text += "+2" + (f"x{m.twos}" if m.twos > 1 else "")
    if m.red_three:
        text += "+3r"
    kind = canasta_kind(m, variant)
    if kind:
        text += "[" + kind.strip(" ()").split()[0] + "]"
    return text


def _pile_state(state: GameState) -> str:
    """``frozen``, ``frozen for side A until its initial meld`` (hoyle-1950 rule 37) or ``not frozen``."""
    if state.frozen:
        return "frozen"
    if state.variant.pile.frozen_until_initial_meld:
        letters = side_letters(state)
        closed = [letters[s] for s in range(state.sides) if not state.opened[s]]
        if closed:
            return f"frozen for {'/'.join(closed)} until the initial meld"
    return "not frozen"


def _seat_name(state: GameState, seat: int) -> str:
    return f"seat {seat} ({side_letters(state)[state.side_of(seat)]})"


def table_view(state: GameState, seat: Optional[int] = None) -> str:
    """The table as a few lines of plain text (no colour), well under 1,500 characters.

    It shows the hand number (from 1, as people count), the dealer, who is to play and in
    which phase (or how the hand or game ended), each side's game total, initial meld
    requirement, red threes and melds (``7x5+JK`` is five sevens and a joker, ``wild(JKx2+2)`` a meld of
    wild cards only, ``5h-9h`` a sequence; a canasta is
    marked ``[natural]``, ``[mixed]``, ``[wild]`` or ``[sequence]``), the pile (its top card, its size, and
    whether it is frozen), the stock, and how many cards each player holds. ``seat``: that
    player's own hand is shown too (a seat from 0); ``None``: no hand is shown.

    Raises :class:`canasta.ArgumentError` when ``seat`` is not a seat of the game.
    """
    from ._errors import ArgumentError, show

    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {show(state)}")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                             or not 0 <= seat < state.players):
        raise ArgumentError("seat", f"expected a seat from 0 to {state.players - 1} or None, not {show(seat)}")
    letters = side_letters(state)
    variant = state.variant
    lines = []
    head = f"Hand {state.hand_number + 1}, dealer {_seat_name(state, state.dealer)}: "
    if state.is_game_over:
        winners = " and ".join(letters[s] for s in state.winners)
        head += f"game over, {winners} {'win' if len(state.winners) > 1 else 'wins'}"
    elif state.is_hand_over:
        res = state.result
        if res is not None and res.went_out is not None:
            how = " concealed" if res.concealed else ""
            head += f"hand over, {_seat_name(state, res.went_out)} went out{how}"
        else:
            head += f"hand over ({res.reason if res is not None else 'ended'})"
    else:
        cur = state.current_player
        assert cur is not None
        head += f"{_seat_name(state, cur)} to play ({state.phase.value.replace('_', ' ')})"
    lines.append(head)
    totals = ", ".join(f"{letters[s]} {t}" for s, t in enumerate(state.totals))
    if state.is_hand_over:
        lines.append(f"Scores: {totals}")
    else:
        needs = ", ".join(f"{letters[s]} {state.initial_need(s)}" for s in range(state.sides))
        lines.append(f"Scores: {totals}; initial meld needs: {needs}")
    for s in range(state.sides):
        melds = state.melds[s]
        text = " ".join(_compact_meld(m, variant) for m in melds) if melds else "none"
        threes = f"; red threes {state.red_threes[s]}" if state.red_threes[s] else ""
        lines.append(f"  {letters[s]} melds: {text}{threes}")
    if not state.is_hand_over:
        top = f"top {CODE_TOKENS[state.pile[-1]]}, " if state.pile else ""
        size = len(state.pile)
        lines.append(f"Pile: {top}{size} card{'' if size == 1 else 's'}, {_pile_state(state)}; "
                     f"stock: {len(state.stock)}")
        held = []
        for p in state.active:
            n = sum(state.hands[p][:N_KINDS])  # (a suited hand's first 15 counts: per kind)
            down = sum(state.down_hands[p][:N_KINDS])
            held.append(f"{p}: {n}" + (f"+{down}" if down else ""))
        idle = [str(p) for p in range(state.players) if p not in state.active]
        out = f" (sitting out: {', '.join(idle)})" if idle else ""
        lines.append(f"Cards held by seat: {', '.join(held)}{out}")
        if seat is not None:
            if seat in state.active:
                down_n = sum(state.down_hands[seat][:N_KINDS])
                foot = f" (+{down_n} face down)" if down_n else ""
                lines.append(f"Hand of seat {seat}: {cards_text(state.hands[seat]) or '(empty)'}{foot}")
            else:
                lines.append(f"Seat {seat} sits out this hand")
        if state.phase is Phase.ANSWER and state.current_player is not None:
            lines.append(f"Seat {state.current_player} is asked: may the partner go out?")
    return "\n".join(lines)


_state._TABLE_VIEW = table_view  # GameState.__str__ (see the slots at the end of _state)
