"""``canasta play``: a game in the terminal against bots, saved as it goes and resumed."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, TextIO

from .._files.records import GameRecord, RecordError
from .._files.replay import replay
from .._newgame import new_game
from .._variant import VariantError
from .._variant_terms import MAX_PLAYERS, MIN_PLAYERS
from .bots import BOTS, DEFAULT_BOT, add_think_arg
from .common import (BAD_INPUT, DEFAULT_VARIANT, MAX_SEED, USAGE, game_words, int_in, isatty, load, plural,
                     short, tolerant)
from .game import Game, play_loop
from .notation import examples
from .save import BOT_NAME, PERSON, SaveFile, read_record_file
from .view import Printer, Screen

NAME = "play"


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    play = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Play a complete game against bots. Before each of your decisions you see "
                    "your hand, the melds, red threes, the pile, the stock, the scores and the "
                    "numbered legal actions; answer with a number or the notation (e.g. 'draw', "
                    "'take 7 7', 'meld 7 7 7', 'add JK to 7', 'discard 5'). Also: 'help' (the "
                    "notation, with examples from your position), 'hint' (what a bot would "
                    "play, and why), 'undo' (back to your previous decision, the bots' moves since "
                    "taken back too) and 'quit' (end the game, with the score so far; end of input "
                    "does the same). Each turn's events are said (the pile taken and how many cards "
                    "it brought, red threes laid down, who went out); on a terminal, the game pauses "
                    "at each hand's end with the itemised scores. With --save FILE the game is "
                    "written to FILE as a game record after every move (so an interrupted game loses "
                    "nothing), and 'canasta play --resume FILE' continues it; 'canasta replay FILE' "
                    "prints it.",
    )
    play.add_argument("variant", nargs="?", default=None, metavar="VARIANT",
                      help=f"a bundled variant name or a variant file (default: {DEFAULT_VARIANT}; "
                           "see 'canasta variants'; not with --resume)")
    play.add_argument("--players", "-p", type=int_in(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="N",
                      help="number of players (default: the variant's usual table; not with --resume)")
    play.add_argument("--seed", "-s", type=int_in(-MAX_SEED, MAX_SEED), default=None, metavar="S",
                      help="seed of the deal and the bots (default: 0; not with --resume)")
    play.add_argument("--seat", "-k", type=int_in(0, MAX_PLAYERS - 1), default=None, metavar="K",
                      help="your seat, 0 to players-1 (default: 0, who plays first in the first hand "
                           "when the dealer sits to the right; with --resume: the seat you played)")
    play.add_argument("--bots", "-b", default=None, choices=list(BOTS),
                      help=f"the bot that plays every other seat (default: {DEFAULT_BOT}; with --resume: the "
                           "bots of the saved game)")
    play.add_argument("--hint-bot", default=DEFAULT_BOT, choices=list(BOTS),
                      help=f"the bot that 'hint' asks (default: {DEFAULT_BOT})")
    add_think_arg(play)
    play.add_argument("--save", metavar="FILE", default=None,
                      help="write the game to FILE as a game record (TOML) after every move, replacing "
                           "FILE; an undo rewrites it without the moves taken back and notes the undo "
                           "in its comment")
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="continue the game saved in FILE (by --save): its rules, players, seed and "
                           "moves are replayed, and the game goes on from where it stopped, saved to "
                           "FILE again (or to --save FILE)")
    play.set_defaults(func=run)


def seats_from_names(record: GameRecord) -> tuple[Optional[int], Optional[str]]:
    """The person's seat and the bots' kind as ``canasta play`` names them in its saves."""
    names = record.names
    people = [s for s, n in enumerate(names) if n == PERSON]
    kinds = {n[: -len(" bot")] for n in names if n.endswith(" bot")}
    seat = people[0] if len(people) == 1 else None
    kind = kinds.pop() if len(kinds) == 1 and next(iter(kinds)) in BOTS else None
    return seat, kind


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play the game the arguments describe (or resume one); the exit status."""
    record: Optional[GameRecord] = None
    if args.resume is not None:
        given = [opt for opt, value in (("VARIANT", args.variant), ("--players", args.players),
                                        ("--seed", args.seed)) if value is not None]
        if given:
            print(f"canasta play: --resume continues the saved game with its own rules, players and "
                  f"seed; leave out {', '.join(given)}", file=sys.stderr)
            return USAGE
        record = read_record_file(args.resume)
        if record is None:
            return BAD_INPUT
        try:
            replay(record)
        except RecordError as e:
            print(f"{short(args.resume)}: the saved game does not replay: {e}", file=sys.stderr)
            return BAD_INPUT
        variant = record.variant
        players = record.players
        seed = record.seed
        named_seat, named_kind = seats_from_names(record)
        me = args.seat if args.seat is not None else (named_seat if named_seat is not None else 0)
        bot_kind = args.bots if args.bots is not None else (named_kind or DEFAULT_BOT)
    else:
        loaded = load(args.variant if args.variant is not None else DEFAULT_VARIANT, sys.stderr)
        if loaded is None:
            return BAD_INPUT
        variant = loaded
        players = args.players if args.players is not None else variant.default_players
        seed = args.seed if args.seed is not None else 0
        me = args.seat if args.seat is not None else 0
        bot_kind = args.bots if args.bots is not None else DEFAULT_BOT
        try:
            variant.table(players)
        except VariantError as e:
            print(f"canasta play: {e}", file=sys.stderr)
            return USAGE
    if not 0 <= me < players:
        print(f"canasta play: --seat must be 0 to {players - 1}", file=sys.stderr)
        return USAGE

    start = record.initial_state() if record is not None else new_game(variant, players, seed=seed)
    names = [PERSON if s == me else BOT_NAME.format(bot_kind) for s in range(players)]
    save_path = args.save if args.save is not None else args.resume
    save: Optional[SaveFile] = None
    if save_path is not None:
        comment = record.comment if record is not None else (
            f"canasta play: seat {me} played by a person, the other seats by {bot_kind} bots")
        save = SaveFile(save_path, start, names, event=(record.event if record is not None and record.event
                                                         else "canasta play"),
                        comment=comment, date=record.date if record is not None else None)
    game = Game(start, me, bot_kind, save, hint_bot=args.hint_bot, think=args.think)
    game.rebuild(record.hands if record is not None else [[]])
    if save is not None:
        problem = save.write(game.hands)  # at once: a file that cannot be written is said now
        if problem is not None:
            print(problem, file=sys.stderr)
            return BAD_INPUT

    screen = Screen(out)
    pr = Printer(out, me=me)
    pr.p(f"Canasta: {variant.name} ({variant.description})")
    pr.p(f"{players} players, seed {seed}, {game_words(variant)}")
    layout = variant.table(players).sides
    for s in range(players):
        name = "you" if s == me else f"a {bot_kind} bot"
        pr.p(f"  seat {s} (side {layout[s]}): {name}")
    pr.p(f"Type an action's number or its notation (e.g. {examples(start)}); "
         "'help' explains, 'hint' suggests, 'undo' takes back, 'quit' ends.")
    if save is not None:
        pr.p(f"The game is saved in {short(save.path)} after every move "
             f"(continue it with: canasta play --resume {short(save.path)}).")
    if record is not None:
        st = game.state
        if st.is_hand_over and not st.is_game_over:  # saved at a hand's end: play_loop deals the next
            pr.p(f"Resumed {short(args.resume)}: hand {st.hand_number + 1} was over "
                 f"({plural(record.moves, 'move')} in all); hand {st.hand_number + 2} is dealt now.")
        else:
            pr.p(f"Resumed {short(args.resume)}: hand {st.hand_number + 1}, "
                 f"{plural(len(game.hands[-1]), 'move')} into it, {plural(record.moves, 'move')} in all.")

    interactive = isatty(sys.stdin)
    echo = not interactive
    tolerant(sys.stdin, "replace")  # a line that is not UTF-8 is read, then refused as an action

    def read(prompt: str) -> str:
        out.flush()
        line = input(prompt)
        if echo:  # scripted input: show it, so that the transcript reads like a session
            print(line, file=out)
        return line

    return play_loop(game, screen, pr, read, interactive, resumed=record is not None)
