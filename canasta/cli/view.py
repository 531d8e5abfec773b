"""What ``canasta play``, ``demo`` and ``replay`` show: each hand's deal, each action and what it
set off, each hand's itemised score, and the person's view of the table before a decision
(plain text, or rich's colours and tables on a terminal).

Turns are worded by :func:`canasta.events` and deals by :func:`canasta.deal_events`, the same
sentences a program or the web example shows; the terminal adds only what the events leave
out on purpose: the cards a player drew, where the watcher may see them (``demo``, ``replay``,
and the person's own draws in ``play``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, TextIO

from .._actions import Action, Discard, Pass
from .._cards import (CARD_NAMES, CODE_TOKENS, KIND_OF, N_KINDS, SEQUENCE_RANK, SUIT_OF, WILD_RANK, cards_text,
                      sequence_text)
from .._events import deal_events, events
from .._tableevent import Event, EventKind
from .._observe import observation
from .._state import GameState
from .._fields import Phase
from .._view import canasta_kind, melds_text, side_letters, table_view
from .common import isatty, plural, seat_label, side_name


SUIT_ORDER = (3, 2, 0, 1)
"""The suits in the order a hand is grouped: spades, hearts, clubs, diamonds (the colours alternate)."""


def hand_text(counts: Sequence[int]) -> str:
    """A hand as a player holds it: in a variant with sequences (samba, bolivia, brazilian),
    grouped by suit, high cards first, the wild cards and threes last
    (``As Qs 10s | Ah Jh 6h 5h | Jc 9c | Ad | 3r 2 JK``), as sequences are built; otherwise
    highest rank first (:func:`cards_text`)."""
    if len(counts) <= N_KINDS:
        return cards_text(tuple(counts))
    groups = []
    for suit in SUIT_ORDER:
        cards = [c for c in range(len(counts) - 1, N_KINDS - 1, -1) if SUIT_OF[c] == suit for _ in range(counts[c])]
        if cards:
            groups.append(" ".join(CODE_TOKENS[c] for c in cards))
    rest = [CODE_TOKENS[k] for k in (3, 2, 1, 0) for _ in range(counts[k])]  # 3r 3b 2 JK
    if rest:
        groups.append(" ".join(rest))
    return " | ".join(groups)


def side_melds_text(melds: Sequence[Any], variant: Any) -> str:
    """A side's melds for the person's view: as :func:`canasta._view.melds_text` names them
    (``7#2``, ``hearts``, canastas marked), a group of more than four cards counted rather than
    spelt out (``7x6+JK (mixed canasta)`` for ``7 7 7 7 7 7 JK``, as ``demo`` shows the table):
    hand-and-foot's canastas are long."""
    parts = melds_text(tuple(melds), variant).split("; ")
    out = []
    for m, text in zip(melds, parts):
        if m.rank < SEQUENCE_RANK and m.size > 4:
            name, sep, _ = text.rpartition(": ")
            count = f"{CODE_TOKENS[m.rank] if m.rank != WILD_RANK else 'wild'}x{m.naturals}" if m.naturals else "wild"
            wilds = "".join(f"+{t}" + (f"x{n}" if n > 1 else "") for t, n in (("JK", m.jokers), ("2", m.twos)) if n)
            red = "+3r" if m.red_three else ""
            text = f"{name}{sep}{count}{wilds}{red}{canasta_kind(m, variant)}"
        out.append(text)
    return "; ".join(out)


def pile_text(pile: tuple[int, ...]) -> str:
    """A pile's cards, the top named: ``3b 8 (top 8)``."""
    if not pile:
        return "empty"
    return f"{sequence_text(pile)} (top {CODE_TOKENS[pile[-1]]})" if len(pile) > 1 else CODE_TOKENS[pile[-1]]


def drawn(before: GameState, after: GameState, seat: int) -> list[int]:
    """The cards ``seat`` drew between the states and still holds (red threes drawn are laid
    down), as card codes, highest first."""
    size = len(after.hands[seat])
    # a hand of a variant with sequences counts each natural per kind and per suit: name it once
    got = [k for k in range(size) if not (size > N_KINDS and 4 <= k < N_KINDS)
           for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
    return sorted(got, key=KIND_OF.__getitem__, reverse=True)


class Printer:
    """Prints a game as it is played: each hand's deal, each action in the words of
    :func:`canasta.events`, each hand's itemised score.

    ``label(state, seat)`` names a seat in the sentences (default ``"seat 1 (side B)"``);
    ``me`` is the person's seat (named "you") in ``play``; ``reveal`` says whose draws are
    shown card by card (everyone's when None: the watcher of ``demo`` and ``replay``)."""

    def __init__(self, out: TextIO, show_hands: bool = False, summary: bool = False, table: bool = False,
                 label: Optional[Callable[[GameState, int], str]] = None, me: Optional[int] = None,
                 hand_names: Optional[Sequence[str]] = None) -> None:
        self.out = out
        self.screen = Screen(out)
        self.table = table
        """Print the table after each turn (``demo``)."""
        self.show_hands = show_hands
        self.summary = summary
        self.label = label or seat_label
        self.me = me
        self.hand_names = hand_names
        """Who plays each seat, for ``show_hands`` (``greedy bot``, a record's names)."""
        self.hand = -1
        self.game_end: Optional[str] = None
        """The sentence of the game's end, once it has come (``GAME_END``)."""

    def p(self, text: str = "", style: Optional[str] = None) -> None:
        self.screen.p(text, style)

    def names(self, st: GameState) -> tuple[str, ...]:
        """Each seat's name in the events' sentences."""
        return tuple("you" if s == self.me else self.label(st, s) for s in range(st.players))

    def deal(self, st: GameState) -> None:
        """A hand's deal, from the state as dealt: who dealt, the upcard, who plays first, red
        threes laid and a pile frozen at the deal, the scores so far and what each side's
        initial meld needs, the pile and the stock."""
        self.hand = st.hand_number
        self.p()
        dealt = deal_events(st, names=self.names(st))
        self.p(f"=== {dealt[0].text}", style="bold")
        for e in dealt[1:]:
            self.p(f"    {e.text}")
        letters = side_letters(st)
        totals = ", ".join(f"{letters[s]} {t}" for s, t in enumerate(st.totals))
        needs = ", ".join(f"{letters[s]} {st.initial_need(s)}" for s in range(st.sides))
        self.p(f"    scores so far: {totals}; initial meld needs: {needs}")
        idle = [s for s in range(st.players) if s not in st.active]
        if idle:
            self.p(f"    sitting out this hand: {', '.join(seat_label(st, s) for s in idle)}")
        # the packet buried under the upcard (upcard.buried, Italian 2.3) is face down: counted only
        b = st.pile_buried
        under = f" on {plural(b, 'card')} face down" if b else ""
        self.p(f"    pile: {pile_text(st.pile[b:])}{under}; stock: {plural(len(st.stock), 'card')}")
        if self.show_hands:
            for seat in st.active:
                down = f"; down: {hand_text(st.down_hands[seat])}" if any(st.down_hands[seat]) else ""
                who = f" [{self.hand_names[seat]}]" if self.hand_names else ""
                self.p(f"    {seat_label(st, seat)}{who}: {hand_text(st.hands[seat])}{down}")
        for line in score_keeper_lines(st, self.me):
            self.p(line)

    def action(self, before: GameState, action: Action, after: GameState) -> None:
        """``play_game``'s hook (``demo``): the deal when a hand begins, then the action."""
        if before.hand_number != self.hand:
            self.deal(before)
        self.turn(before, action, after)

    def turn(self, before: GameState, action: Action, after: GameState, prefix: str = "  ",
             follow: str = "    ", style: Optional[str] = None) -> None:
        """The sentences of ``action``: the action (with the cards drawn, where the watcher may
        see them) after ``prefix``, then what it set off, each on a line after ``follow``; at a
        hand's end, the itemised score."""
        seat = before.current_player
        assert seat is not None
        said = list(events(before, action, after, names=self.names(before)))
        said[1:1] = _foot_events(before, after, seat, said, self.names(before))
        if not self.summary:
            for i, e in enumerate(e for e in said if e.kind not in (EventKind.HAND_END, EventKind.GAME_END)):
                text = e.text
                if e.kind is EventKind.DRAW and (self.me is None or seat == self.me):
                    got = drawn(before, after, seat)
                    side = before.side_of(seat)
                    red = after.red_threes[side] - before.red_threes[side]  # drawn and laid down at once
                    if got or red > 0:
                        named = [CODE_TOKENS[k] for k in got]
                        if red > 0:
                            named.append(f"{'and ' if got else ''}{'a red three' if red == 1 else f'{red} red threes'} "
                                         "(laid down)")
                        text = f"{text[:-1]}: {' '.join(named[:len(got)])}{', ' if got and red > 0 else ''}" \
                               f"{' '.join(named[len(got):])}."
                self.p(f"{prefix if i == 0 else follow}{text}", style=style)
            if self.table and isinstance(action, (Discard, Pass)) and not after.is_hand_over:
                self.turn_table(after)
        for e in said:
            if e.kind is EventKind.HAND_END:
                self.hand_end(after, e)
            elif e.kind is EventKind.GAME_END:
                self.game_end = e.text

    def turn_table(self, st: GameState) -> None:
        """The table after a turn, compactly: each side's melds and red threes, the pile."""
        lines = table_view(st).splitlines()
        melds = [line.strip() for line in lines if line.startswith("  ")]
        if sum(len(m) for m in melds) <= 110:
            melds = [" | ".join(melds)]
        for line in melds + [line for line in lines if line.startswith("Pile: ")]:
            self.p("    " + line, style="dim")

    def hand_end(self, st: GameState, end: Event) -> None:
        """The hand's end: its sentence (how it ended, each side's score and total), then each
        side's itemised score (a table on a terminal)."""
        heading = f"--- {end.text}"
        if self.screen.console is not None:
            self.screen.scores(st, heading)
            return
        res = st.result
        assert res is not None
        self.p(heading)
        rows = [[(f"{item.name} x{item.count}" if item.count >= 0 else item.name, item.points)
                 for item in sc.items] + [("hand total", sc.total)] for sc in res.scores]
        width = max(len(name) for side in rows for name, _ in side) + 2
        for sc, side in zip(res.scores, rows):
            self.p(f"    {side_name(st, sc.side)}:")
            for name, points in side:
                self.p(f"      {name:<{width}}{points:>7}")


def _foot_events(before: GameState, after: GameState, seat: int, said: list[Event],
                 names: tuple[str, ...]) -> list[Event]:
    """A player taking up his foot (his face-down second hand: hand-and-foot, new-canasta), as a
    sentence, where :func:`canasta.events` does not tell it itself."""
    if any("foot" in e.kind.value or "down" in e.kind.value for e in said):
        return []
    if after.hand_number != before.hand_number or not any(before.down_hands[seat]) or any(after.down_hands[seat]):
        return []
    n = sum(before.down_hands[seat][:N_KINDS])
    text = f"{names[seat]} took up the foot ({plural(n, 'card')})."
    return [Event(EventKind.DRAW, text[:1].upper() + text[1:], seat=seat, side=before.side_of(seat), count=n)]


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
    R = st._rules
    blocks = top in R.blocked and not (R.block_upcard and top >= 4 and st._c.turned & R.seat_mask)
    blocked = f"; a {CARD_NAMES[top]} on top: it cannot be taken now" if blocks else ""
    if obs.frozen:
        state, ways = "frozen", pile.take_frozen
    elif pile.frozen_until_initial_meld and not obs.opened[obs.side]:
        state, ways = "frozen for your side until its initial meld", pile.take_frozen
    else:
        state, ways = "not frozen", pile.take_unfrozen
    words = " or ".join(_WAY_WORDS.get(w, w.replace("_", " ")) for w in ways)
    return f"{state} (taken with {words}){blocked}"


def red_threes_words(n: int) -> str:
    """``no red threes``, ``1 red three``, ``2 red threes``."""
    return "no red threes" if n == 0 else plural(n, "red three")


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
        lines.append(f"    side {letters[s]}{mine}: {red_threes_words(obs.red_threes[s])}; melds: "
                     + (side_melds_text(obs.melds[s], st.variant) if obs.melds[s] else "none"))
        for p in range(obs.players):
            if p == me or obs.side_of[p] != s:
                continue
            downs = obs.down_hand_sizes[p]
            down = f" + {plural(downs, 'card')} face down" if downs else ""
            idle = "" if p in obs.active else " (sitting out)"
            lines.append(f"      seat {p}: {plural(obs.hand_sizes[p], 'card')} in hand{down}{idle}")
    if obs.pile_top is None:
        pile = "empty"
    else:
        under = f" ({obs.pile_buried} face down under the upcard)" if obs.pile_buried else ""
        pile = f"top {CODE_TOKENS[obs.pile_top]}, {plural(obs.pile_size, 'card')}{under}, {pile_words(obs, st)}"
    lines.append(f"    pile: {pile}; stock: {plural(obs.stock_size, 'card')}")
    down = f" (+ {plural(obs.down_hand_size, 'card')} face down)" if obs.down_hand_size else ""
    lines.append(f"    your hand (seat {me}, side {letters[obs.side]}): "
                 f"{hand_text(obs.hand) or '(empty)'}{down}")
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

    def scores(self, st: GameState, heading: str) -> None:
        """The itemised score of a finished hand as a rich table (on a terminal)."""
        from rich.table import Table

        res = st.result
        assert res is not None
        letters = side_letters(st)
        self.p(heading, style="bold")
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


def score_keeper_lines(st: GameState, me: Optional[int] = None) -> list[str]:
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
            lines.append(f"    seat {keeper} is skipped as dealer: {'you' if me == 0 else 'seat 0'} "
                         f"{what if me != 0 else what.replace('deals', 'deal')} in its place")
    natural = (dealers[-1] + 1) % n
    first = st.current_player if not st.history else None
    if len(dealers) > 1:
        who = "you" if dealers[0] == me else f"seat {dealers[0]}"
        lines.append(f"    two dealers: {who} dealt the hands in play, seat {dealers[1]} (the next dealer) "
                     "the down hands; the player left of the down-hand dealer plays first")
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
