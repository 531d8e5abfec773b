"""The ``canasta`` command: watch bots play a game, list the bundled variants.

Run ``canasta --help`` (or ``python -m canasta --help``) for the commands.
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence, TextIO

from ._actions import Action, Discard, Draw, Take
from ._bots import GreedyBot, RandomBot, play_game
from ._cards import N_KINDS, _TOKENS, cards_text, sequence_text
from ._state import GameState, HandResult
from ._variant import VariantError, load_variant, variant_names

__all__ = ["main"]

BOTS = {"greedy": GreedyBot, "random": RandomBot}
DEFAULT_VARIANT = "hoyle-1950"
DEFAULT_MAX_HANDS = 200


def _side_letters(st: GameState) -> list[str]:
    return sorted(set(st.variant.table(st.players).sides))


def _who(st: GameState, seat: int) -> str:
    letter = _side_letters(st)[st.side_of(seat)]
    return f"seat {seat} (side {letter})"


def _side_name(st: GameState, side: int) -> str:
    letters = _side_letters(st)
    seats = [s for s in range(st.players) if st.side_of(s) == side]
    return f"side {letters[side]} (seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))})"


def _pile_text(pile: tuple[int, ...]) -> str:
    if not pile:
        return "empty"
    return f"{sequence_text(pile)} (top {_TOKENS[pile[-1]]})" if len(pile) > 1 else _TOKENS[pile[-1]]


class _Printer:
    """Prints a game move by move as the bots play it."""

    def __init__(self, out: TextIO, bot_names: list[str], show_hands: bool, summary: bool) -> None:
        self.out = out
        self.bot_names = bot_names
        self.show_hands = show_hands
        self.summary = summary
        self.hand = -1

    def p(self, text: str = "") -> None:
        print(text, file=self.out)

    def header(self, st: GameState) -> None:
        self.hand = st.hand_number
        self.p()
        self.p(f"=== Hand {st.hand_number + 1} === dealer: {_who(st, st.dealer)}")
        totals = ", ".join(f"{_side_letters(st)[s]} {t}" for s, t in enumerate(st.totals))
        needs = ", ".join(f"{_side_letters(st)[s]} {st.initial_need(s)}" for s in range(st.sides))
        self.p(f"    scores so far: {totals}; initial meld needs: {needs}")
        idle = [s for s in range(st.players) if s not in st.active]
        if idle:
            self.p(f"    sitting out this hand: {', '.join(_who(st, s) for s in idle)}")
        frozen = " (frozen)" if st.frozen else ""
        self.p(f"    pile: {_pile_text(st.pile)}{frozen}; stock: {len(st.stock)} cards")
        for s in range(st.sides):
            if st.red_threes[s]:
                self.p(f"    side {_side_letters(st)[s]} has {st.red_threes[s]} red three(s) faced")
        if self.show_hands:
            for seat in st.active:
                down = f" | down: {cards_text(st.down_hands[seat])}" if any(st.down_hands[seat]) else ""
                self.p(f"    {_who(st, seat)} [{self.bot_names[seat]}]: {cards_text(st.hands[seat])}{down}")

    def action(self, before: GameState, action: Action, after: GameState) -> None:
        if before.hand_number != self.hand:
            self.header(before)
        seat = before.current_player
        assert seat is not None
        if not self.summary:
            self.p(f"  {_who(before, seat)}: {action}{self._detail(before, action, after, seat)}")
        if after.is_hand_over:
            self.hand_end(after)

    def _detail(self, before: GameState, action: Action, after: GameState, seat: int) -> str:
        notes = []
        if isinstance(action, Draw) and after.hand_number == before.hand_number:
            got = [k for k in range(N_KINDS)
                   for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
            side = before.side_of(seat)
            reds = after.red_threes[side] - before.red_threes[side]
            if got:
                notes.append("drew " + " ".join(_TOKENS[k] for k in sorted(got, reverse=True)))
            if reds > 0:
                notes.append(f"faced {reds} red three(s)")
        elif isinstance(action, Take):
            notes.append(f"pile of {len(before.pile)}")
        elif isinstance(action, Discard) and not after.is_hand_over and after.frozen and not before.frozen:
            notes.append("the pile is frozen")
        if not after.is_hand_over and after.current_player == seat and sum(after.hands[seat]) == 0:
            notes.append("hand empty")
        return f"  ({'; '.join(notes)})" if notes else ""

    def hand_end(self, st: GameState) -> None:
        res: Optional[HandResult] = st.result
        assert res is not None
        who = f"{_who(st, res.went_out)} went out" if res.went_out is not None else "nobody went out"
        how = " concealed" if res.concealed else ""
        why = f" ({res.reason})" if res.reason != "went out" else ""
        self.p(f"--- Hand {st.hand_number + 1} over: {who}{how}{why}")
        for sc in res.scores:
            self.p(f"    {_side_name(st, sc.side)}:")
            for item in sc.items:
                count = f" x{item.count}" if item.count >= 0 else ""
                self.p(f"      {item.name + count:<28}{item.points:>7}")
            self.p(f"      {'hand total':<28}{sc.total:>7}")
        totals = ", ".join(f"side {_side_letters(st)[s]} {t}" for s, t in enumerate(st.totals))
        self.p(f"    game totals: {totals}")


def _parse_bots(text: str, players: int) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("--bots needs at least one bot name")
    bad = [n for n in names if n not in BOTS]
    if bad:
        raise ValueError(f"unknown bot {bad[0]!r}: choose from {', '.join(BOTS)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players: give one, or one per seat")
    return names


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    try:
        variant = load_variant(args.variant)
    except (VariantError, OSError) as e:
        print(f"canasta demo: {e}", file=sys.stderr)
        return 2
    players = args.players if args.players is not None else variant.default_players
    try:
        variant.table(players)
        names = _parse_bots(args.bots, players)
    except (VariantError, ValueError) as e:
        print(f"canasta demo: {e}", file=sys.stderr)
        return 2
    bots = [BOTS[n](args.seed * 1000 + s) for s, n in enumerate(names)]
    pr = _Printer(out, names, args.show_hands, args.summary)
    pr.p(f"Canasta demo: {variant.name} ({variant.description})")
    pr.p(f"{players} players, seed {args.seed}, first to {variant.game.target} wins")
    layout = variant.table(players).sides
    for seat in range(players):
        pr.p(f"  seat {seat} (side {layout[seat]}) is a {names[seat]} bot")
    st, results = play_game(variant, players, bots, seed=args.seed, on_action=pr.action,
                            max_hands=args.max_hands)
    pr.p()
    letters = _side_letters(st)
    ranking = sorted(range(st.sides), key=lambda s: -st.totals[s])
    final = ", ".join(f"side {letters[s]} {st.totals[s]}" for s in ranking)
    if st.is_game_over:
        winners = " and ".join(f"side {letters[s]}" for s in st.winners)
        verb = "win" if len(st.winners) > 1 else "wins"
        pr.p(f"=== Game over after {len(results)} hand(s): {winners} {verb} ({final})")
    else:
        pr.p(f"=== Stopped after {len(results)} hand(s) (the --max-hands cap) with no winner ({final})")
    return 0


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    names = variant_names()
    width = max(len(n) for n in names)
    for name in names:
        v = load_variant(name)
        tables = ", ".join(sorted(v.tables, key=int))
        print(f"{name:<{width}}  {v.description}", file=out)
        print(f"{'':<{width}}  players: {tables} (default {v.default_players})", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command."""
    parser = argparse.ArgumentParser(
        prog="canasta",
        description="The rules of Canasta in every documented variant: watch bots play, list variants.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo", help="watch bots play a complete game, move by move",
        description="Play a complete game between bots and print it move by move: each hand's "
                    "deal, every action, each side's itemised score, and the winner.",
    )
    demo.add_argument("variant", nargs="?", default=DEFAULT_VARIANT, metavar="VARIANT",
                      help=f"a bundled variant name or a variant file (default: {DEFAULT_VARIANT}; "
                           "see 'canasta variants')")
    demo.add_argument("--players", "-p", type=int, default=None, metavar="N",
                      help="number of players (default: the variant's usual table)")
    demo.add_argument("--seed", "-s", type=int, default=0, metavar="S",
                      help="seed of the deal and the bots; the same seed replays the same game (default: 0)")
    demo.add_argument("--bots", "-b", default="greedy", metavar="LIST",
                      help="bot per seat, comma separated, from: " + ", ".join(BOTS)
                           + "; one name plays every seat (default: greedy)")
    demo.add_argument("--max-hands", type=int, default=DEFAULT_MAX_HANDS, metavar="H",
                      help=f"stop after H hands if nobody has won (default: {DEFAULT_MAX_HANDS})")
    demo.add_argument("--show-hands", action="store_true",
                      help="print every player's hand at each deal")
    demo.add_argument("--summary", action="store_true",
                      help="print only the deals and the scores, not every action")
    demo.set_defaults(func=_cmd_demo)
    variants = sub.add_parser(
        "variants", help="list the bundled variants",
        description="List each bundled variant: its name, description and table sizes.",
    )
    variants.set_defaults(func=_cmd_variants)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``canasta`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    if getattr(args, "max_hands", 1) < 1:
        parser.error("--max-hands must be at least 1")
    try:
        return int(args.func(args, sys.stdout))
    except BrokenPipeError:  # e.g. piped into head
        return 0
