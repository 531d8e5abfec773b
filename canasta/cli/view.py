"""What ``canasta play``, ``demo`` and ``replay`` show: the person's view of the table before a
decision, each hand's deal, each action and what it set off, and each hand's itemised score
(plain text, or rich's colours and tables on a terminal)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Optional, TextIO

from .._actions import Action, Add, Combine, Discard, Draw, Meld, Pass, Take
from .._cards import CARD_NAMES, CARD_NAMES_PLURAL, CODE_TOKENS, KIND_OF, N_KINDS, WILD_RANK, cards_text, sequence_text
from .._observation import observation
from .._state import GameState, HandResult, Phase
from .._view import canasta_kind, melds_text, side_letters, table_view
from .common import isatty, plural, side_name, seat_label


def pile_text(pile: tuple[int, ...]) -> str:
    if not pile:
        return "empty"
    return f"{sequence_text(pile)} (top {CODE_TOKENS[pile[-1]]})" if len(pile) > 1 else CODE_TOKENS[pile[-1]]


class Printer:
    """Prints a game move by move as the bots play it."""

    def __init__(self, out: TextIO, bot_names: list[str], show_hands: bool, summary: bool,
                 table: bool = False) -> None:
        self.out = out
        self.screen = Screen(out)
        self.table = table
        """Print the table after each turn (``demo``)."""
        self.bot_names = bot_names
        self.show_hands = show_hands
        self.summary = summary
        self.hand = -1

    def p(self, text: str = "", style: Optional[str] = None) -> None:
        self.screen.p(text, style)

    def header(self, st: GameState) -> None:
        self.hand = st.hand_number
        self.p()
        self.p(f"=== Hand {st.hand_number + 1} === dealer: {seat_label(st, st.dealer)}", style="bold")
        totals = ", ".join(f"{side_letters(st)[s]} {t}" for s, t in enumerate(st.totals))
        needs = ", ".join(f"{side_letters(st)[s]} {st.initial_need(s)}" for s in range(st.sides))
        self.p(f"    scores so far: {totals}; initial meld needs: {needs}")
        idle = [s for s in range(st.players) if s not in st.active]
        if idle:
            self.p(f"    sitting out this hand: {', '.join(seat_label(st, s) for s in idle)}")
        frozen = " (frozen)" if st.frozen else ""
        self.p(f"    pile: {pile_text(st.pile)}{frozen}; stock: {len(st.stock)} cards")
        for s in range(st.sides):
            if st.red_threes[s]:
                self.p(f"    side {side_letters(st)[s]} has laid down {plural(st.red_threes[s], 'red three')}")
        if self.show_hands:
            for seat in st.active:
                down = f" | down: {cards_text(st.down_hands[seat])}" if any(st.down_hands[seat]) else ""
                self.p(f"    {seat_label(st, seat)} [{self.bot_names[seat]}]: {cards_text(st.hands[seat])}{down}")
        for line in score_keeper_lines(st):
            self.p(line)

    def action(self, before: GameState, action: Action, after: GameState) -> None:
        if before.hand_number != self.hand:
            self.header(before)
        seat = before.current_player
        assert seat is not None
        if not self.summary:
            self.p(f"  {seat_label(before, seat)}: {action}{action_detail(before, action, after, seat)}")
            if self.table and isinstance(action, (Discard, Pass)) and not after.is_hand_over:
                self.turn_table(after)
        if after.is_hand_over:
            self.hand_end(after)

    def turn_table(self, st: GameState) -> None:
        """The table after a turn, compactly: each side's melds and red threes, the pile."""
        lines = table_view(st).splitlines()
        melds = [line.strip() for line in lines if line.startswith("  ")]
        if sum(len(m) for m in melds) <= 110:
            melds = [" | ".join(melds)]
        for line in melds + [line for line in lines if line.startswith("Pile: ")]:
            self.p("    " + line, style="dim")

    def hand_end(self, st: GameState) -> None:
        """The hand's end: who went out and each side's itemised score (a table on a terminal)."""
        if self.screen.console is not None:
            self.screen.scores(st)
            return
        res: Optional[HandResult] = st.result
        assert res is not None
        self.p(hand_over_line(st))
        for sc in res.scores:
            self.p(f"    {side_name(st, sc.side)}:")
            for item in sc.items:
                count = f" x{item.count}" if item.count >= 0 else ""
                self.p(f"      {item.name + count:<28}{item.points:>7}")
            self.p(f"      {'hand total':<28}{sc.total:>7}")
        totals = ", ".join(f"side {side_letters(st)[s]} {t}" for s, t in enumerate(st.totals))
        self.p(f"    game totals: {totals}")


def action_detail(before: GameState, action: Action, after: GameState, seat: int,
                   reveal: bool = True, me: Optional[int] = None, indent: str = "  ") -> str:
    """Notes on an action: the cards drawn (only if ``reveal``, else how many), red threes
    laid down (also the dealt ones, laid down as the next turn begins, on a line of their
    own), the pile taken and how many cards it brought, a pile frozen, a hand emptied, a
    player going out. ``me`` is the seat called "you"."""
    notes = []
    same_hand = after.hand_number == before.hand_number
    side = before.side_of(seat)
    faced = [after.red_threes[s] - before.red_threes[s] if same_hand else 0 for s in range(before.sides)]
    if isinstance(action, Draw) and same_hand:
        size = len(after.hands[seat])
        # a hand of a variant with sequences counts each natural per kind and per suit: name it once
        got = [k for k in range(size) if not (size > N_KINDS and 4 <= k < N_KINDS)
               for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
        if reveal and got:
            notes.append("drew " + " ".join(CODE_TOKENS[k] for k in sorted(got, key=KIND_OF.__getitem__,
                                                                            reverse=True)))
        elif not reveal:
            n = len(before.stock) - len(after.stock) - max(0, faced[side])
            notes.append(f"drew {plural(n, 'card')}")
        if faced[side] > 0:
            notes.append(f"laid down {plural(faced[side], 'red three')}")
            faced[side] = 0
    elif isinstance(action, Take):
        notes.append(f"took the pile: {plural(len(before.pile), 'card')}")
    elif isinstance(action, Discard) and not after.is_hand_over and after.frozen and not before.frozen:
        notes.append("the pile is frozen")
    if not after.is_hand_over and after.current_player == seat and sum(after.hands[seat]) == 0:
        notes.append("hand empty")
    if same_hand and isinstance(action, (Take, Meld, Add, Combine)):
        notes.extend(canastas_made(before, after, side))
    res = after.result if same_hand and after.is_hand_over else None
    if res is not None and res.went_out == seat:
        notes.append("went out concealed" if res.concealed else "went out")
    text = f"  ({'; '.join(notes)})" if notes else ""
    for s, n in enumerate(faced):
        if n > 0:  # a dealt red three, faced as its holder's turn begins
            nxt = after.current_player
            if nxt is not None and after.side_of(nxt) == s:
                who = "you lay down" if nxt == me else f"{seat_label(after, nxt)} lays down"
            else:
                who = f"side {side_letters(after)[s]} lays down"
            text += f"\n{indent}{who} {plural(n, 'red three')}"
    return text


def canastas_made(before: GameState, after: GameState, side: int) -> list[str]:
    """"completed a natural canasta of 7s" for each canasta ``side`` completed between the states."""
    v = before.variant

    def ranks(st: GameState) -> Counter[int]:
        return Counter(m.rank for m in st.melds[side] if canasta_kind(m, v))

    notes = []
    for rank, n in (ranks(after) - ranks(before)).items():
        kind = next(canasta_kind(m, v) for m in reversed(after.melds[side]) if m.rank == rank and canasta_kind(m, v))
        what = kind.strip(" ()")
        of = "" if rank == WILD_RANK else f" of {CARD_NAMES_PLURAL[rank]}"
        notes.extend([f"completed a {what}{of}"] * n)
    return notes


_WAY_WORDS = {"natural_pair": "a natural pair of its top card", "natural_and_wild": "a natural card and a wild card",
              "add_to_meld": "its top card added to a meld of your side"}
def pile_words(obs: Any, st: GameState) -> str:
    """Whether the pile is frozen for the viewer's side, and what may take it: frozen for
    everyone, or only against a side that has not made its initial meld (hoyle-1950 rule 37,
    bicycle), each with its own ways of taking (``pile.take_frozen`` / ``take_unfrozen``)."""
    if obs.pile_top is None:
        return "empty"
    pile = st.variant.pile
    top = obs.pile_top
    blocked = f"; a {CARD_NAMES[top]} on top: it cannot be taken now" if top in st._rules.blocked else ""
    if obs.frozen:
        state, ways = "frozen", pile.take_frozen
    elif pile.frozen_until_initial_meld and not obs.opened[obs.side]:
        state, ways = "frozen for your side until its initial meld", pile.take_frozen
    else:
        state, ways = "not frozen", pile.take_unfrozen
    words = " or ".join(_WAY_WORDS.get(w, w.replace("_", " ")) for w in ways)
    return f"{state} (taken with {words}){blocked}"


def person_view(st: GameState, me: int) -> list[str]:
    """What the person at seat ``me`` may see: own hand, table, pile, stock, scores, turn.

    Built from :func:`observation` (what that seat may know and nothing more) and the rules
    (public), so no hidden card can show: other hands and down hands appear as sizes only.
    """
    obs = observation(st, me)
    letters = side_letters(st)
    lines = []
    cur = obs.current_player
    who = "you" if cur == me else (seat_label(st, cur) if cur is not None else "nobody")
    lines.append(f"--- hand {obs.hand_number + 1}: {who} to play, phase: {obs.phase.value}")
    totals = ", ".join(f"{letters[s]} {t}" for s, t in enumerate(obs.totals))
    needs = ", ".join(f"{letters[s]} {n}" for s, n in enumerate(obs.initial_need))
    lines.append(f"    scores: {totals}; initial meld needs: {needs}")
    for s in range(obs.sides):
        mine = " (your side)" if obs.side == s else ""
        lines.append(f"    side {letters[s]}{mine}: red threes {obs.red_threes[s]}; melds: "
                     + (melds_text(obs.melds[s], st.variant) if obs.melds[s] else "none"))
        for p in range(obs.players):
            if p == me or obs.side_of[p] != s:
                continue
            downs = obs.down_hand_sizes[p]
            down = f" + {plural(downs, 'card')} face down" if downs else ""
            idle = "" if p in obs.active else " (sitting out)"
            lines.append(f"      seat {p}: {plural(obs.hand_sizes[p], 'card')} in hand{down}{idle}")
    top = CODE_TOKENS[obs.pile_top] if obs.pile_top is not None else "none"
    lines.append(f"    pile: top {top}, {plural(obs.pile_size, 'card')}, {pile_words(obs, st)}; "
                 f"stock: {plural(obs.stock_size, 'card')}")
    down = f" (+ {plural(obs.down_hand_size, 'card')} face down)" if obs.down_hand_size else ""
    lines.append(f"    your hand (seat {me}, side {letters[obs.side]}): "
                 f"{cards_text(obs.hand) or '(empty)'}{down}")
    if obs.turn.pending_size:
        lines.append(f"    set aside from the pile you are taking: {plural(obs.turn.pending_size, 'card')}")
    if obs.phase is Phase.ANSWER:
        lines.append('    your partner asks: "may I go out?" (answer yes or no)')
    return lines


class Screen:
    """Where ``canasta play`` and ``canasta demo`` write: plain text, or rich's colours and
    tables when the output is a terminal and rich (the ``cli`` extra) is installed."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.console: Any = None
        if isatty(out):
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                self.console = Console(file=out, highlight=False, markup=False, emoji=False)

    def p(self, text: str = "", style: Optional[str] = None) -> None:
        if self.console is not None and style:
            self.console.print(text, style=style, soft_wrap=True)
        else:
            print(text, file=self.out)

    def scores(self, st: GameState) -> None:
        """The itemised score of a finished hand as a rich table (on a terminal)."""
        from rich.table import Table

        res = st.result
        assert res is not None
        letters = side_letters(st)
        self.p(hand_over_line(st), style="bold")
        table = Table(title=None, show_header=True, header_style="bold")
        table.add_column("")
        for sc in res.scores:
            table.add_column(f"side {letters[sc.side]}", justify="right")
        names: list[str] = []
        for sc in res.scores:
            for item in sc.items:
                if item.name not in names:
                    names.append(item.name)
        for name in names:
            row = [name]
            for sc in res.scores:
                items = [i for i in sc.items if i.name == name]
                if not items:
                    row.append("")
                    continue
                count = sum(i.count for i in items)
                x = f" ({count})" if all(i.count >= 0 for i in items) else ""
                row.append(f"{sum(i.points for i in items)}{x}")
            table.add_row(*row)
        table.add_row("hand total", *(str(sc.total) for sc in res.scores), style="bold")
        table.add_row("game total", *(str(t) for t in st.totals), style="bold cyan")
        self.console.print(table)


def hand_over_line(st: GameState) -> str:
    res = st.result
    assert res is not None
    who = f"{seat_label(st, res.went_out)} went out" if res.went_out is not None else "nobody went out"
    how = " concealed" if res.concealed else ""
    why = f" ({res.reason})" if res.reason != "went out" else ""
    return f"--- Hand {st.hand_number + 1} over: {who}{how}{why}"


def score_keeper_lines(st: GameState) -> list[str]:
    """new-canasta's score keeper (``deal.score_keeper``): why that seat does not deal or play first."""
    if not st.variant.deal.score_keeper or st.players < 2:
        return []
    from .._core._deal import next_dealer

    R = st._rules
    n = st.players
    keeper = n - 1
    lines = [f"    seat {keeper} keeps the score (deal.score_keeper): it plays its turns, but never "
             "deals and never plays first"]
    dealers = [st.dealer] + ([next_dealer(R, st.dealer)] if R.down_size else [])
    for i, d in enumerate(dealers):
        if d == 0:  # the deal passed from seat n-2 to seat 0 over the keeper
            what = "deals" if i == 0 else "deals the down hands"
            lines.append(f"    seat {keeper} is skipped as dealer: seat 0 {what} in its place")
    natural = (dealers[-1] + 1) % n
    first = st.current_player if not st.history else None
    if natural == keeper and first is not None and first != keeper:
        lines.append(f"    seat {keeper} would play first (left of the dealer), but keeps the score: "
                     f"seat {first} plays first")
    return lines


def score_so_far(st: GameState) -> str:
    letters = side_letters(st)
    totals = ", ".join(f"side {letters[s]} {t}" for s, t in enumerate(st.totals))
    if st.is_hand_over:
        return f"Score after hand {st.hand_number + 1}: {totals}"
    return (f"Score so far: {totals} (hand {st.hand_number + 1} was not finished and is not "
            "scored)")
