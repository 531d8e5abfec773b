"""``canasta replay``: print a saved game record move by move."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from .._files.record_text import load_record
from .._files.records import RecordError
from .._files.replay import replay_lenient
from .._state import GameState
from .common import game_words, plural, seat_label, short, side_letters
from .view import Printer


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The command's arguments."""
    replay = sub.add_parser(
        "replay", help="print a saved game record move by move",
        description="Print a saved game record move by move, with each hand's scores. Moves the "
                    "rules do not allow are reported with their move numbers (exit status 1).",
    )
    replay.add_argument("file", metavar="FILE",
                        help="a game record file (TOML), such as 'canasta play --save' and "
                             "'canasta demo --save' write")
    replay.add_argument("--show-hands", action="store_true",
                        help="print every player's hand at each deal")
    replay.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the record; the exit status (1 if a move is not allowed)."""
    label = short(args.file)
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        if isinstance(e, UnicodeDecodeError):
            print(f"{label}: not UTF-8 text ({e.reason} at byte {e.start}); save the record "
                  "as UTF-8", file=sys.stderr)
        else:
            print(f"{label}: cannot read: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f"{label}: not a text file ({e.reason})", file=sys.stderr)
        return 1
    try:
        record = load_record(text)
        result = replay_lenient(record)
        st = record.initial_state()
    except RecordError as e:
        print(f"{label}: {e}", file=sys.stderr)
        return 1
    stops = {(e.hand, e.move): e for e in result.errors if e.hand is not None}

    def named(state: GameState, seat: int) -> str:
        base = seat_label(state, seat)
        return f"{base[:-1]}, {record.names[seat]})" if record.names else base

    pr = Printer(out, show_hands=args.show_hands, label=named, hand_names=record.names or None)
    variant = record.variant
    pr.p(f"Game record {label}: {variant.name} ({variant.description})")
    pr.p(f"{record.players} players, seed {record.seed}, {game_words(variant)}; "
         f"{plural(len(record.hands), 'hand')}, {plural(record.moves, 'move')}")
    meta = [f"{k}: {v}" for k, v in (("date", record.date), ("event", record.event),
                                     ("comment", record.comment)) if v]
    for line in meta:
        pr.p(f"  {line}")
    layout = variant.table(record.players).sides
    for s in range(record.players):
        name = f": {record.names[s]}" if record.names else ""
        pr.p(f"  seat {s} (side {layout[s]}){name}")

    stopped = False
    for h, moves in enumerate(record.hands):
        if h > 0:
            if not st.is_hand_over or st.is_game_over:
                stopped = True
                break
            st = st.next_hand()
        pr.deal(st)
        for m, move in enumerate(moves):
            problem = stops.get((h + 1, m + 1))
            seat = st.current_player
            if problem is not None or seat is None:
                mover = _upper(named(st, seat)) if seat is not None else "Nobody is to play"
                why = problem.problem if problem is not None else "the hand is over"
                pr.p(f"  {m + 1:>3}. {move}: {mover}  <-- {why}")
                stopped = True
                break
            try:
                after = st.apply(move)
            except ValueError as e:  # replay_lenient found no problem here; never expected
                pr.p(f"  {m + 1:>3}. {move}: {_upper(named(st, seat))}  <-- {e}")
                stopped = True
                break
            pr.turn(st, after.history[-1], after, prefix=f"  {m + 1:>3}. {after.history[-1]}: ", follow=" " * 9)
            st = after
        if stopped:
            break
    pr.p()
    letters = side_letters(st)
    totals = ", ".join(f"side {letters[s]} {t}" for s, t in enumerate(st.totals))
    if st.is_game_over:
        winners = " and ".join(f"side {letters[s]}" for s in st.winners)
        pr.p(f"=== Game over: {winners} {'win' if len(st.winners) > 1 else 'wins'} ({totals})")
    elif stopped:
        pr.p(f"=== Replay stopped in hand {st.hand_number + 1} ({totals})")
    else:
        pr.p(f"=== The record ends in hand {st.hand_number + 1}, game not over ({totals})")
    if result.errors:
        print(f"{label}: {plural(len(result.errors), 'problem')} in the record:", file=sys.stderr)
        for err in result.errors:
            print(f"{label}: {err}", file=sys.stderr)
        return 1
    return 0


def _upper(text: str) -> str:
    """``text`` with its first letter a capital (a sentence's subject)."""
    return text[:1].upper() + text[1:]
