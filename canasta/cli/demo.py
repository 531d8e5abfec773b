"""``canasta demo``: watch bots play a complete game, move by move."""

from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO

from .._actions import Action
from .._bots import play_game
from .._state import GameState
from .._newgame import new_game
from .._variant import VariantError
from .bots import BOTS, DEFAULT_BOT, Thinking, add_think_arg, bot_names, make_bot, thinks
from .common import (BAD_INPUT, DEFAULT_MAX_HANDS, MAX_COUNT, USAGE, add_players_seed, add_variant_arg,
                     game_words, int_in, load, plural, short, side_letters)
from .save import BOT_NAME, SaveFile
from .view import Printer


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    demo = sub.add_parser(
        "demo", help="watch bots play a complete game, move by move",
        description="Play a complete game between bots and print it move by move: each hand's "
                    "deal, every action, the table after each turn (each side's melds and red "
                    "threes, the pile's top card and whether it is frozen), each side's itemised "
                    "score, and the winner.",
    )
    add_variant_arg(demo)
    add_players_seed(demo, "seed of the deal and the bots; the same seed replays the same game (default: 0)")
    demo.add_argument("--bots", "-b", default=DEFAULT_BOT, metavar="LIST",
                      help="bot per seat, comma separated, from: " + bot_names()
                           + f"; one name plays every seat (default: {DEFAULT_BOT})")
    add_think_arg(demo)
    demo.add_argument("--max-hands", type=int_in(1, MAX_COUNT), default=DEFAULT_MAX_HANDS, metavar="H",
                      help=f"stop after H hands if nobody has won (default: {DEFAULT_MAX_HANDS})")
    demo.add_argument("--show-hands", action="store_true",
                      help="print every player's hand at each deal")
    demo.add_argument("--summary", action="store_true",
                      help="print only the deals and the scores, not every action or the table")
    demo.add_argument("--save", metavar="FILE", default=None,
                      help="write the game to FILE as a game record (TOML) after every move, for "
                           "'canasta replay FILE'")
    demo.set_defaults(func=run)


def parse_bots(text: str, players: int) -> list[str]:
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("--bots needs at least one bot name")
    bad = [n for n in names if n not in BOTS]
    if bad:
        raise ValueError(f"unknown bot {bad[0]!r}: choose from {bot_names()}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players: give one, or one per seat")
    return names


def seat_label_plain(seat: int, layout: "str | tuple[str, ...] | list[str]") -> str:
    """A seat as demo names it, from the table's layout of sides: ``seat 1 (side B)``."""
    return f"seat {seat} (side {layout[seat]})"


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play and print the game the arguments describe; the exit status."""
    variant = load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    players = args.players if args.players is not None else variant.default_players
    try:
        variant.table(players)
        names = parse_bots(args.bots, players)
    except (VariantError, ValueError) as e:
        print(f"canasta demo: {e}", file=sys.stderr)
        return USAGE
    bots = [make_bot(n, args.seed * 1000 + s, args.think) for s, n in enumerate(names)]
    pr = Printer(out, args.show_hands, args.summary, table=True, hand_names=[f"{n} bot" for n in names])
    hook: Callable[[GameState, Action, GameState], None] = pr.action
    if args.save is not None:
        start = new_game(variant, players, seed=args.seed)
        save = SaveFile(args.save, start, [BOT_NAME.format(n) for n in names], event="canasta demo",
                         comment=f"canasta demo: {', '.join(names)} bots, seed {args.seed}")
        problem = save.write([[]])
        if problem is not None:
            print(problem, file=sys.stderr)
            return BAD_INPUT
        hands: list[list[str]] = [[]]

        def saving(before: GameState, action: Action, after: GameState) -> None:
            while len(hands) <= before.hand_number:
                hands.append([])
            hands[-1].append(str(action))
            save.save(hands)
            pr.action(before, action, after)

        hook = saving
    pr.p(f"Canasta demo: {variant.name} ({variant.description})")
    pr.p(f"{players} players, seed {args.seed}, {game_words(variant)}")
    layout = variant.table(players).sides
    for seat in range(players):
        pr.p(f"  seat {seat} (side {layout[seat]}) is a {names[seat]} bot")
    thinking = Thinking(out)
    bots = [thinking.wrap(bot, seat_label_plain(seat, layout)) if thinks(n) else bot
            for seat, (bot, n) in enumerate(zip(bots, names))]
    st, results = play_game(variant, players, bots, seed=args.seed, on_action=hook,
                            max_hands=args.max_hands)
    pr.p()
    letters = side_letters(st)
    ranking = sorted(range(st.sides), key=lambda s: -st.totals[s])
    final = ", ".join(f"side {letters[s]} {st.totals[s]}" for s in ranking)
    played = plural(len(results), "hand")
    if st.is_game_over and pr.game_end is not None:
        pr.p(f"=== {pr.game_end[:-1]} ({final}; {played})")
    else:
        pr.p(f"=== Stopped after {played} (the --max-hands cap) with no winner ({final})")
    if args.save is not None:
        pr.p(f"Saved in {short(args.save)}: print it again with canasta replay {short(args.save)}")
    return 0
