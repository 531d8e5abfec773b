"""The ``canasta`` command: play against bots, watch bots play, inspect and compare variants.

Run ``canasta --help`` (or ``python -m canasta --help``) for the commands:

* ``demo``: watch bots play a complete game, move by move;
* ``play``: play a game in the terminal against bots;
* ``simulate``: bots play many deals; statistics of how the deals went;
* ``variants``, ``show``, ``validate``, ``diff``: list, print, check and compare rule sets;
* ``replay``: print a saved game record move by move.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from collections import Counter
from typing import Any, Callable, Optional, Sequence, TextIO

import tomli_w

from ._actions import (Action, ActionParseError, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld,
                       Pass, Retract, Take, parse_action)
from ._bots import Bot, GreedyBot, RandomBot, _ask, play_game
from ._simulate import BUILTIN_BOTS, Estimate, Simulation, SimulationError, _bots_for, bot_factory, simulate
from ._cards import (CARD_NAMES, CARD_NAMES_PLURAL, CODE_TOKENS, KIND_OF, N_KINDS, WILD_RANK, Card, cards_text,
                     sequence_text)
from ._record import GameRecord, RecordError, dump_record, load_record, replay
from ._state import GameState, HandResult, Phase
from ._observation import observation
from ._variant import MAX_PLAYERS, MIN_PLAYERS, Variant, VariantError, load_variant, variant_names, variant_to_dict
from ._coreinfo import core_info
from ._version import __version__
from ._view import canasta_kind, melds_text, side_letters, table_view

__all__ = ["main"]

BOTS: dict[str, Callable[[int], Bot]] = {"greedy": GreedyBot, "random": RandomBot}

BAD_INPUT = 1
"""Exit status: bad input (a file, a variant, an action, a record), or ``diff``: the variants differ."""
USAGE = 2
"""Exit status: a usage error (an unknown command or option, a bad option value)."""
MAX_SEED = (1 << 63) - 1
"""The largest ``--seed`` (either sign)."""
MAX_COUNT = 10 ** 9
"""The most ``--deals``, ``--games`` or ``--max-hands``."""
MAX_JOBS = 256
"""The most worker processes (``--jobs``)."""
DEFAULT_VARIANT = "hoyle-1950"
DEFAULT_MAX_HANDS = 200


_side_letters = side_letters


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
    return f"{sequence_text(pile)} (top {CODE_TOKENS[pile[-1]]})" if len(pile) > 1 else CODE_TOKENS[pile[-1]]


class _Printer:
    """Prints a game move by move as the bots play it."""

    def __init__(self, out: TextIO, bot_names: list[str], show_hands: bool, summary: bool,
                 table: bool = False) -> None:
        self.out = out
        self.screen = _Screen(out)
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
        self.p(f"=== Hand {st.hand_number + 1} === dealer: {_who(st, st.dealer)}", style="bold")
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
                self.p(f"    side {_side_letters(st)[s]} has laid down {_plural(st.red_threes[s], 'red three')}")
        if self.show_hands:
            for seat in st.active:
                down = f" | down: {cards_text(st.down_hands[seat])}" if any(st.down_hands[seat]) else ""
                self.p(f"    {_who(st, seat)} [{self.bot_names[seat]}]: {cards_text(st.hands[seat])}{down}")
        for line in _score_keeper_lines(st):
            self.p(line)

    def action(self, before: GameState, action: Action, after: GameState) -> None:
        if before.hand_number != self.hand:
            self.header(before)
        seat = before.current_player
        assert seat is not None
        if not self.summary:
            self.p(f"  {_who(before, seat)}: {action}{_action_detail(before, action, after, seat)}")
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
        self.p(_hand_over_line(st))
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
    variant = _load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    players = args.players if args.players is not None else variant.default_players
    try:
        variant.table(players)
        names = _parse_bots(args.bots, players)
    except (VariantError, ValueError) as e:
        print(f"canasta demo: {e}", file=sys.stderr)
        return USAGE
    bots = [BOTS[n](args.seed * 1000 + s) for s, n in enumerate(names)]
    pr = _Printer(out, names, args.show_hands, args.summary, table=True)
    hook: Callable[[GameState, Action, GameState], None] = pr.action
    if args.save is not None:
        from ._state import new_game

        start = new_game(variant, players, seed=args.seed)
        save = _SaveFile(args.save, start, [BOT_NAME.format(n) for n in names], event="canasta demo",
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
    pr.p(f"{players} players, seed {args.seed}, {_game_words(variant)}")
    layout = variant.table(players).sides
    for seat in range(players):
        pr.p(f"  seat {seat} (side {layout[seat]}) is a {names[seat]} bot")
    st, results = play_game(variant, players, bots, seed=args.seed, on_action=hook,
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
    if args.save is not None:
        pr.p(f"Saved in {_short(args.save)}: print it again with canasta replay {_short(args.save)}")
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


# ------------------------------------------------------------------ show, validate, diff


def _load(ref: str, err: TextIO) -> Optional[Variant]:
    """The variant named or stored at ``ref``; None after printing every problem on ``err``."""
    try:
        return load_variant(ref)
    except VariantError as e:
        for problem in e.problems:
            print(problem, file=err)
    except OSError as e:  # unreadable file, a directory, ... (load_variant reports these itself)
        print(f"{_short(ref)}: (file): {e.strerror or e}", file=err)
    return None


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    variant = _load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    out.write(tomli_w.dumps(variant_to_dict(variant)))
    return 0


def _cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    status = 0
    for ref in args.files:
        try:
            load_variant(ref)
        except VariantError as e:
            status = 1
            for problem in e.problems:
                print(problem, file=out)
        except OSError as e:
            status = 1
            print(f"{_short(ref)}: (file): {e.strerror or e}", file=out)
        else:
            print(f"{ref}: ok", file=out)
    return status


_METADATA = ("name", "description", "source")


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested tables as dotted keys (``melds.canasta_size``); lists stay whole values."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(_flatten(value, path + "."))
        else:
            flat[path] = value
    return flat


def _value_text(value: Any) -> str:
    """A setting's value written as in a TOML file."""
    if value is _UNSET:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


_UNSET = object()


def _cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    a = _load(args.a, sys.stderr)
    b = _load(args.b, sys.stderr)
    if a is None or b is None:
        return BAD_INPUT
    fa, fb = _flatten(variant_to_dict(a)), _flatten(variant_to_dict(b))
    keys = sorted(set(fa) | set(fb))
    if not args.all:
        keys = [k for k in keys if k not in _METADATA]
    lines = [f"{k}: {_value_text(fa.get(k, _UNSET))} -> {_value_text(fb.get(k, _UNSET))}"
             for k in keys if fa.get(k, _UNSET) != fb.get(k, _UNSET)]
    for line in lines:
        print(line, file=out)
    if not lines:
        print("no differences", file=out)
        return 0
    return 1  # like diff(1): the variants differ


# ------------------------------------------------------------------ play


def _action_detail(before: GameState, action: Action, after: GameState, seat: int,
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
            notes.append(f"drew {_plural(n, 'card')}")
        if faced[side] > 0:
            notes.append(f"laid down {_plural(faced[side], 'red three')}")
            faced[side] = 0
    elif isinstance(action, Take):
        notes.append(f"took the pile: {_plural(len(before.pile), 'card')}")
    elif isinstance(action, Discard) and not after.is_hand_over and after.frozen and not before.frozen:
        notes.append("the pile is frozen")
    if not after.is_hand_over and after.current_player == seat and sum(after.hands[seat]) == 0:
        notes.append("hand empty")
    if same_hand and isinstance(action, (Take, Meld, Add, Combine)):
        notes.extend(_canastas_made(before, after, side))
    res = after.result if same_hand and after.is_hand_over else None
    if res is not None and res.went_out == seat:
        notes.append("went out concealed" if res.concealed else "went out")
    text = f"  ({'; '.join(notes)})" if notes else ""
    for s, n in enumerate(faced):
        if n > 0:  # a dealt red three, faced as its holder's turn begins
            nxt = after.current_player
            if nxt is not None and after.side_of(nxt) == s:
                who = "you lay down" if nxt == me else f"{_who(after, nxt)} lays down"
            else:
                who = f"side {_side_letters(after)[s]} lays down"
            text += f"\n{indent}{who} {_plural(n, 'red three')}"
    return text


def _canastas_made(before: GameState, after: GameState, side: int) -> list[str]:
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


def _game_words(variant: Variant) -> str:
    """How the game is won: 'first to 5000 wins', 'four hands, the highest total wins'."""
    g = variant.game
    hands = f"{g.hands} hands, the highest total wins" if g.hands else ""
    if not g.target:
        return hands
    first = f"first to {g.target} wins"
    return f"{first} (or the highest total after {g.hands} hands)" if hands else first


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_canasta_kind = canasta_kind
_melds_text = melds_text


_WAY_WORDS = {"natural_pair": "a natural pair of its top card", "natural_and_wild": "a natural card and a wild card",
              "add_to_meld": "its top card added to a meld of your side"}
def _pile_words(obs: Any, st: GameState) -> str:
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


def _view(st: GameState, me: int) -> list[str]:
    """What the person at seat ``me`` may see: own hand, table, pile, stock, scores, turn.

    Built from :func:`observation` (what that seat may know and nothing more) and the rules
    (public), so no hidden card can show: other hands and down hands appear as sizes only.
    """
    obs = observation(st, me)
    letters = _side_letters(st)
    lines = []
    cur = obs.current_player
    who = "you" if cur == me else (_who(st, cur) if cur is not None else "nobody")
    lines.append(f"--- hand {obs.hand_number + 1}: {who} to play, phase: {obs.phase.value}")
    totals = ", ".join(f"{letters[s]} {t}" for s, t in enumerate(obs.totals))
    needs = ", ".join(f"{letters[s]} {n}" for s, n in enumerate(obs.initial_need))
    lines.append(f"    scores: {totals}; initial meld needs: {needs}")
    for s in range(obs.sides):
        mine = " (your side)" if obs.side == s else ""
        lines.append(f"    side {letters[s]}{mine}: red threes {obs.red_threes[s]}; melds: "
                     + (_melds_text(obs.melds[s], st.variant) if obs.melds[s] else "none"))
        for p in range(obs.players):
            if p == me or obs.side_of[p] != s:
                continue
            downs = obs.down_hand_sizes[p]
            down = f" + {_plural(downs, 'card')} face down" if downs else ""
            idle = "" if p in obs.active else " (sitting out)"
            lines.append(f"      seat {p}: {_plural(obs.hand_sizes[p], 'card')} in hand{down}{idle}")
    top = CODE_TOKENS[obs.pile_top] if obs.pile_top is not None else "none"
    lines.append(f"    pile: top {top}, {_plural(obs.pile_size, 'card')}, {_pile_words(obs, st)}; "
                 f"stock: {_plural(obs.stock_size, 'card')}")
    down = f" (+ {_plural(obs.down_hand_size, 'card')} face down)" if obs.down_hand_size else ""
    lines.append(f"    your hand (seat {me}, side {letters[obs.side]}): "
                 f"{cards_text(obs.hand) or '(empty)'}{down}")
    if obs.turn.pending_size:
        lines.append(f"    set aside from the pile you are taking: {_plural(obs.turn.pending_size, 'card')}")
    if obs.phase is Phase.ANSWER:
        lines.append('    your partner asks: "may I go out?" (answer yes or no)')
    return lines


_QUIT = ("quit", "exit", "q")
PROMPT = "your action (number, notation, 'help', 'hint', 'undo' or 'quit'): "
"""``canasta play``'s prompt for the person's decision."""
PAUSE_PROMPT = "Press Enter to deal the next hand ('quit' ends): "
"""``canasta play``'s prompt at a hand's end, on a terminal."""
_UNDO = ("undo", "u")
_HINT = ("hint", "h")
_HELP = ("help", "?")

PERSON = "you"
"""The name of the person's seat in a record that ``canasta play`` saves."""
BOT_NAME = "{} bot"
"""The name of a bot's seat in a saved record: ``greedy bot``, ``random bot``."""


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _Quit(Exception):
    """The person ended the game (``quit`` or end of input)."""


# ------------------------------------------------------------------ saving as the game goes


class _SaveFile:
    """A game record in a file, rewritten whole after every move (so an interrupted game loses
    nothing): written to a temporary file beside it, then renamed over it."""

    def __init__(self, path: str, start: GameState, names: Sequence[str], event: str,
                 comment: str = "", date: Optional[datetime.date] = None) -> None:
        self.path = path
        self.variant = start.variant
        self.players = start.players
        self.seed = start.seed
        self.dealer = start.dealer
        self.names = tuple(names)
        self.event = event
        self.comment = comment
        self.date = date if date is not None else datetime.date.today()
        self.warned = False

    def record(self, hands: Sequence[Sequence[str]]) -> GameRecord:
        """The record of the game whose moves are ``hands`` (one list per hand)."""
        return GameRecord(self.variant, self.players, self.seed, self.dealer, hands, date=self.date,
                          names=self.names, event=self.event, comment=self.comment)

    def write(self, hands: Sequence[Sequence[str]]) -> Optional[str]:
        """Write the record; None, or what went wrong (the file is then as it was)."""
        text = dump_record(self.record(hands))
        tmp: Optional[str] = None
        try:
            directory = os.path.dirname(os.path.abspath(self.path))
            fd, tmp = tempfile.mkstemp(prefix=".canasta-save-", suffix=".tmp", dir=directory)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, self.path)
            tmp = None
        except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
            return f"{_short(self.path)}: (file): cannot write: {getattr(e, 'strerror', None) or e}"
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        return None

    def save(self, hands: Sequence[Sequence[str]]) -> bool:
        """:meth:`write`, saying once on stderr when it fails (the game goes on unsaved)."""
        problem = self.write(hands)
        if problem is not None and not self.warned:
            print(f"{problem}; the game goes on, but is not saved", file=sys.stderr)
            self.warned = True
        return problem is None


def _read_record_file(path: str) -> Optional[GameRecord]:
    """The record in ``path``, or None after saying on stderr what is wrong (naming the file)."""
    label = _short(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        print(f"{label}: (file): not UTF-8 text ({e.reason} at byte {e.start}); not a saved game",
              file=sys.stderr)
        return None
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        print(f"{label}: (file): cannot read: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return None
    try:
        return load_record(text)
    except RecordError as e:
        print(f"{label}: not a saved game (a game record, as 'canasta play --save' writes): {e}",
              file=sys.stderr)
        return None


# ------------------------------------------------------------------ help and hint


_HELP_ROWS: tuple[tuple[type, str, str], ...] = (
    (Draw, "draw", "draw the top card of the stock"),
    (Take, "take 7 7 | take 7 JK | take onto 7", "take the pile: its top card with a natural pair, "
                                                  "with a natural card and a wild card, or onto your meld"),
    (Meld, "meld 7 7 7 | meld 7 7 JK", "lay down a new meld from your hand"),
    (Add, "add 7 | add JK to 7 | add 2 to 7#2", "add a card to a meld of your side (7#2: the second 7s)"),
    (Combine, "combine 7#1 7#2", "join two melds of one rank"),
    (Discard, "discard 7", "discard a card, ending your turn"),
    (Ask, "ask", "ask your partner: may I go out?"),
    (Answer, "yes | no", "answer your partner (the answer binds)"),
    (Pass, "pass", "the stock is used up: do not take the pile"),
    (Done, "done", "end the turn without a discard (the last card was a red three)"),
    (Retract, "retract", "give back a pile taken for an initial meld you cannot reach"),
)


def _help_text(st: GameState) -> list[str]:
    """The notation, each kind of action with examples from the legal actions here."""
    acts = st.legal_actions()
    lines = ["Type an action's number from the list, or the action in notation (cards: JK 2 3r 3b "
             "4 5 6 7 8 9 10 J Q K A; case does not matter):"]
    for kind, form, meaning in _HELP_ROWS:
        now = [str(a) for a in acts if isinstance(a, kind)]
        lines.append(f"  {form:<36} {meaning}")
        if now:
            more = f" (and {len(now) - 3} more)" if len(now) > 3 else ""
            lines.append(f"  {'':<36}   now: {', '.join(repr(t) for t in now[:3])}{more}")
    lines.append("Commands: 'hint' (what the greedy bot would play, and why), 'undo' (back to your "
                 "previous decision), 'help', 'quit' (end the game, with the score so far).")
    return lines


def _hint(st: GameState, seed: int) -> tuple[Action, str]:
    """The greedy bot's choice for the player to act, and why it plays it."""
    action = _ask(GreedyBot(seed), st)  # a fresh bot: the same hint every time in a position
    return action, _reason(st, action)


def _goes_out_after(st: GameState, seat: int) -> bool:
    """Whether the greedy bot, playing on for ``seat`` in ``st``, goes out before its turn ends."""
    bot = GreedyBot(0)
    for _ in range(100):
        if st.is_hand_over:
            return st.result is not None and st.result.went_out == seat
        if st.current_player != seat:
            return False
        st = st.apply(_ask(bot, st))
    return False


def _reason(st: GameState, action: Action) -> str:
    """Why the greedy bot plays ``action`` here, in the words of its policy (see GreedyBot)."""
    seat = st.current_player
    assert seat is not None
    side = st.side_of(seat)
    acts = st.legal_actions()
    after = st.apply(action)
    if after.is_hand_over and after.result is not None and after.result.went_out == seat:
        return "it goes out"
    if isinstance(action, Take):
        return f"taking the pile brings {_plural(len(st.pile), 'card')}"
    if isinstance(action, Draw):
        takes = [a for a in acts if isinstance(a, Take)]
        if not takes:
            return "the pile cannot be taken now"
        return (f"the pile ({_plural(len(st.pile), 'card')}) could be taken only with a wild card, "
                "which the greedy bot spends only on a pile of three cards or more")
    if isinstance(action, Answer):
        standing = "ahead" if action.yes else "not ahead"
        return f"your side is {standing} (game total plus the table), so {'yes' if action.yes else 'no'}"
    if isinstance(action, Ask):
        return "you can go out this turn and your side is ahead, so your partner should say yes"
    if isinstance(action, Pass):
        return "the stock is used up and the pile cannot be taken"
    if isinstance(action, Done):
        return "nothing more is worth melding"
    if isinstance(action, Retract):
        return "the initial meld cannot be reached with this pile"
    if isinstance(action, (Meld, Add, Combine, Discard)) and _goes_out_after(after, seat):
        return "it begins going out this turn (the greedy bot goes out whenever it can)"
    if isinstance(action, (Meld, Add, Combine)):
        v = st.variant
        before_c = sum(1 for m in st.melds[side] if canasta_kind(m, v))
        after_c = sum(1 for m in after.melds[side] if canasta_kind(m, v))
        if after_c > before_c or (isinstance(action, Add) and action.card == Card.RED_THREE):
            return "it completes a canasta"
        if not st.opened[side] and after.opened[side]:
            return "it makes your side's initial meld"
        if not st.opened[side]:
            return f"toward your side's initial meld ({st.initial_need(side)} points)"
        if st.phase is Phase.FINAL_MELD or len(st.stock) <= 2 * len(st.active):
            return "the stock is nearly out: meld everything you can"
        return "natural cards are melded as soon as they can be (completing canastas first, then the most points)"
    if isinstance(action, Discard):
        card = action.card
        if card == Card.BLACK_THREE:
            return "a black three blocks the next player from taking the pile"
        if card == Card.RED_THREE:
            return "a red three kept in hand costs points at the end of the hand"
        why = []
        if st.hands[seat][card] == 1:
            why.append("you hold no pair of it")
        if not any(m.rank == card for s in range(st.sides) if s != side for m in st.melds[s]):
            why.append("the opponents have no meld to add it to")
        because = f" ({'; '.join(why)})" if why else ""
        return f"the card least worth keeping: {'an' if CARD_NAMES[card][0] in 'aeiou' else 'a'} " \
               f"{CARD_NAMES[card]}{because}"
    return "the greedy bot's choice"


# ------------------------------------------------------------------ the game in the terminal


class _Undo(Exception):
    """The person asked to go back to the previous decision."""


class _Play:
    """A game of ``canasta play``: the person's seat, the bots, the moves so far (the record),
    the save file. The bots are made anew from the seed and follow the recorded moves whenever
    the game is rebuilt (on resume and undo), so the game depends only on the seed and the
    person's moves."""

    def __init__(self, start: GameState, me: int, bot_kind: str, save: Optional[_SaveFile]) -> None:
        self.start = start
        self.me = me
        self.bot_kind = bot_kind
        self.save_file = save
        self.hands: list[list[str]] = [[]]
        self.seats: list[list[int]] = [[]]
        self.state = start
        self.bots: dict[int, Bot] = {}
        self.undo_notes: list[str] = []
        self.base_comment = save.comment if save is not None else ""

    def rebuild(self, hands: Sequence[Sequence[str]]) -> None:
        """Replay ``hands`` (legal moves, as checked by ``replay``) from the deal, the bots
        choosing at their moves as they did (their random sources advance the same way)."""
        seed = self.start.seed
        self.bots = {s: BOTS[self.bot_kind](seed * 1000 + s) for s in range(self.start.players) if s != self.me}
        st = self.start
        self.hands, self.seats = [], []
        for h, moves in enumerate(hands):
            if h > 0:
                st = st.next_hand()
            seats: list[int] = []
            for text in moves:
                seat = st.current_player
                assert seat is not None
                if seat != self.me:
                    _ask(self.bots[seat], st)
                st = st.apply(parse_action(text))
                seats.append(seat)
            self.hands.append(list(moves))
            self.seats.append(seats)
        self.state = st

    def save(self) -> None:
        if self.save_file is not None:
            self.save_file.comment = "\n".join([self.base_comment, *self.undo_notes]).strip()
            self.save_file.save(self.hands)

    def apply(self, action: Action) -> GameState:
        seat = self.state.current_player
        assert seat is not None
        after = self.state.apply(action)
        self.hands[-1].append(str(action))
        self.seats[-1].append(seat)
        self.state = after
        self.save()
        return after

    def next_hand(self) -> GameState:
        self.state = self.state.next_hand()
        self.hands.append([])
        self.seats.append([])
        self.save()
        return self.state

    def undo(self) -> Optional[tuple[str, int]]:
        """Go back to the person's previous decision: (that move, how many moves were taken
        back), or None when there is none. The save file is rewritten without them."""
        for h in range(len(self.seats) - 1, -1, -1):
            for m in range(len(self.seats[h]) - 1, -1, -1):
                if self.seats[h][m] == self.me:
                    move = self.hands[h][m]
                    taken = sum(len(x) for x in self.hands[h:]) - m
                    hands = [list(x) for x in self.hands[:h + 1]]
                    hands[h] = hands[h][:m]
                    now = self.state.hand_number + 1
                    self.rebuild(hands)
                    self.undo_notes.append(f"undo in hand {now}: back to hand {h + 1}, move {m + 1} "
                                           f"({move!r}), {_plural(taken, 'move')} taken back")
                    self.save()
                    return move, taken
        return None


class _Screen:
    """Where ``canasta play`` and ``canasta demo`` write: plain text, or rich's colours and
    tables when the output is a terminal and rich (the ``cli`` extra) is installed."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.console: Any = None
        if _isatty(out):
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
        letters = _side_letters(st)
        self.p(_hand_over_line(st), style="bold")
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


def _hand_over_line(st: GameState) -> str:
    res = st.result
    assert res is not None
    who = f"{_who(st, res.went_out)} went out" if res.went_out is not None else "nobody went out"
    how = " concealed" if res.concealed else ""
    why = f" ({res.reason})" if res.reason != "went out" else ""
    return f"--- Hand {st.hand_number + 1} over: {who}{how}{why}"


def _score_keeper_lines(st: GameState) -> list[str]:
    """new-canasta's score keeper (``deal.score_keeper``): why that seat does not deal or play first."""
    if not st.variant.deal.score_keeper or st.players < 2:
        return []
    from ._core._deal import next_dealer

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


def _score_so_far(st: GameState) -> str:
    letters = _side_letters(st)
    totals = ", ".join(f"side {letters[s]} {t}" for s, t in enumerate(st.totals))
    if st.is_hand_over:
        return f"Score after hand {st.hand_number + 1}: {totals}"
    return (f"Score so far: {totals} (hand {st.hand_number + 1} was not finished and is not "
            "scored)")


def _ask_person(st: GameState, game: _Play, screen: _Screen, read: Callable[[str], str]) -> Action:
    """Show the person's view and the numbered legal actions; read until a legal action is
    given. ``help`` and ``hint`` answer and ask again; ``undo`` raises :class:`_Undo`, ``quit``
    and end of input :class:`_Quit`."""
    me = game.me
    out = screen.out
    for i, line in enumerate(_view(st, me)):
        screen.p(line, style="bold" if i == 0 else None)
    acts = st.legal_actions()
    print("    legal actions:", file=out)
    width = len(str(len(acts)))
    for i, a in enumerate(acts, 1):
        print(f"      {i:>{width}}. {a}", file=out)
    while True:
        try:
            line = read(PROMPT)
        except EOFError:
            print(file=out)
            raise _Quit from None
        text = line.strip()
        if not text:
            continue
        word = text.lower()
        if word in _QUIT:
            raise _Quit
        if word in _HELP:
            for h in _help_text(st):
                print(h, file=out)
            continue
        if word in _HINT:
            action, why = _hint(st, st.seed * 1000 + me)
            n = acts.index(action) + 1 if action in acts else 0
            screen.p(f"hint: {n}. {action} ({why})", style="green")
            continue
        if word in _UNDO:
            raise _Undo
        if text.isascii() and text.isdigit():
            n = int(text) if len(text) <= 9 else 0
            if 1 <= n <= len(acts):
                return acts[n - 1]
            screen.p(f"no action number {_short(text)}: choose 1 to {len(acts)}", style="red")
            continue
        try:
            action = parse_action(text)
            reason = st.why_illegal(action)
        except ActionParseError as e:
            screen.p(f"cannot read that: {e} (type 'help' for the notation)", style="red")
            continue
        except Exception as e:  # noqa: BLE001 - whatever was typed, the prompt asks again
            screen.p(f"cannot read that: {_short(text)!r} ({type(e).__name__}: {e}); type a number "
                     "from the list or an action such as 'draw' or 'discard 5'", style="red")
            continue
        if reason is None:
            return action
        screen.p(f"{action} is not allowed: {reason}", style="red")


def _seats_from_names(record: GameRecord) -> tuple[Optional[int], Optional[str]]:
    """The person's seat and the bots' kind as ``canasta play`` names them in its saves."""
    names = record.names
    people = [s for s, n in enumerate(names) if n == PERSON]
    kinds = {n[: -len(" bot")] for n in names if n.endswith(" bot")}
    seat = people[0] if len(people) == 1 else None
    kind = kinds.pop() if len(kinds) == 1 and next(iter(kinds)) in BOTS else None
    return seat, kind


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    record: Optional[GameRecord] = None
    if args.resume is not None:
        given = [opt for opt, value in (("VARIANT", args.variant), ("--players", args.players),
                                        ("--seed", args.seed)) if value is not None]
        if given:
            print(f"canasta play: --resume continues the saved game with its own rules, players and "
                  f"seed; leave out {', '.join(given)}", file=sys.stderr)
            return USAGE
        record = _read_record_file(args.resume)
        if record is None:
            return BAD_INPUT
        try:
            replay(record)
        except RecordError as e:
            print(f"{_short(args.resume)}: the saved game does not replay: {e}", file=sys.stderr)
            return BAD_INPUT
        variant = record.variant
        players = record.players
        seed = record.seed
        named_seat, named_kind = _seats_from_names(record)
        me = args.seat if args.seat is not None else (named_seat if named_seat is not None else 0)
        bot_kind = args.bots if args.bots is not None else (named_kind or "greedy")
    else:
        loaded = _load(args.variant if args.variant is not None else DEFAULT_VARIANT, sys.stderr)
        if loaded is None:
            return BAD_INPUT
        variant = loaded
        players = args.players if args.players is not None else variant.default_players
        seed = args.seed if args.seed is not None else 0
        me = args.seat if args.seat is not None else 0
        bot_kind = args.bots if args.bots is not None else "greedy"
        try:
            variant.table(players)
        except VariantError as e:
            print(f"canasta play: {e}", file=sys.stderr)
            return USAGE
    if not 0 <= me < players:
        print(f"canasta play: --seat must be 0 to {players - 1}", file=sys.stderr)
        return USAGE
    from ._state import new_game

    start = record.initial_state() if record is not None else new_game(variant, players, seed=seed)
    names = [PERSON if s == me else BOT_NAME.format(bot_kind) for s in range(players)]
    save_path = args.save if args.save is not None else args.resume
    save: Optional[_SaveFile] = None
    if save_path is not None:
        comment = record.comment if record is not None else (
            f"canasta play: seat {me} played by a person, the other seats by {bot_kind} bots")
        save = _SaveFile(save_path, start, names, event=(record.event if record is not None and record.event
                                                         else "canasta play"),
                         comment=comment, date=record.date if record is not None else None)
    game = _Play(start, me, bot_kind, save)
    game.rebuild(record.hands if record is not None else [[]])
    if save is not None:
        problem = save.write(game.hands)  # at once: a file that cannot be written is said now
        if problem is not None:
            print(problem, file=sys.stderr)
            return BAD_INPUT

    screen = _Screen(out)
    pr = _Printer(out, names, show_hands=False, summary=False)
    pr.p(f"Canasta: {variant.name} ({variant.description})")
    pr.p(f"{players} players, seed {seed}, {_game_words(variant)}")
    layout = variant.table(players).sides
    for s in range(players):
        who = "you" if s == me else f"a {bot_kind} bot"
        pr.p(f"  seat {s} (side {layout[s]}): {who}")
    pr.p("Type an action's number or its notation (e.g. 'draw', 'meld 7 7 7', 'discard 5'); "
         "'help' explains, 'hint' suggests, 'undo' takes back, 'quit' ends.")
    if save is not None:
        pr.p(f"The game is saved in {_short(save.path)} after every move "
             f"(continue it with: canasta play --resume {_short(save.path)}).")
    if record is not None:
        st = game.state
        pr.p(f"Resumed {_short(args.resume)}: hand {st.hand_number + 1}, "
             f"{_plural(len(game.hands[-1]), 'move')} into it, {_plural(record.moves, 'move')} in all.")

    interactive = _isatty(sys.stdin)
    echo = not interactive
    _tolerant(sys.stdin, "replace")  # a line that is not UTF-8 is read, then refused as an action

    def read(prompt: str) -> str:
        out.flush()
        line = input(prompt)
        if echo:  # scripted input: show it, so that the transcript reads like a session
            print(line, file=out)
        return line

    header = pr.header

    def ended(st: GameState) -> int:
        pr.p(_score_so_far(st), style="bold")
        if save is not None:
            pr.p(f"Saved in {_short(save.path)}: continue with canasta play --resume {_short(save.path)}")
        pr.p("Game ended.")
        return 0

    st = game.state
    try:
        if st.is_hand_over and not st.is_game_over:
            st = game.next_hand()  # a save made at a hand's end: on with the next hand
        header(st)
        while not st.is_game_over:
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                if seat == me:
                    try:
                        action = _ask_person(st, game, screen, read)
                    except _Undo:
                        back = game.undo()
                        if back is None:
                            screen.p("Nothing to undo: this is your first decision of the game.", style="red")
                        else:
                            move, taken = back
                            since = f" and the bots' {_plural(taken - 1, 'move')} since" if taken > 1 else ""
                            screen.p(f"Undone: your {move!r}{since}; back to that decision.", style="yellow")
                            if game.state.hand_number != st.hand_number:
                                header(game.state)
                        st = game.state
                        continue
                else:
                    action = _ask(game.bots[seat], st)
                after = game.apply(action)
                who = "you" if seat == me else _who(st, seat)
                screen.p(f"  {who}: {action}{_action_detail(st, action, after, seat, reveal=seat == me, me=me)}",
                         style="cyan" if seat == me else None)
                st = after
            pr.hand_end(st)
            if st.is_game_over:
                break
            if interactive:
                try:
                    answer = read(PAUSE_PROMPT)
                except EOFError:
                    print(file=out)
                    raise _Quit from None
                if answer.strip().lower() in _QUIT:
                    raise _Quit
            st = game.next_hand()
            header(st)
    except _Quit:
        return ended(st)
    except KeyboardInterrupt:  # Ctrl-C: the save is up to date; say where it is
        print(file=out)
        ended(game.state)
        return 130
    letters = _side_letters(st)
    winners = " and ".join(f"side {letters[s]}" for s in st.winners)
    yours = st.side_of(me) in st.winners
    pr.p(f"=== Game over: {winners} {'win' if len(st.winners) > 1 else 'wins'}"
         f" ({'you win' if yours else 'you lose'})")
    return 0


# ------------------------------------------------------------------ simulate


class _Progress:
    """Progress on stderr: a plain-text line (rewritten in place on a terminal, else every 10%)."""

    def __init__(self, total: int, stream: TextIO, enabled: bool, what: str = "deals") -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.what = what
        self.tty = enabled and _isatty(stream)
        self.shown = -1

    def __enter__(self) -> _Progress:
        self.update(0, self.total)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.tty and self.shown >= 0 and exc[0] is not None:
            self.stream.write("\n")

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        pct = 100 * done // total
        line = f"simulating: {done}/{total} {self.what} ({pct}%)"
        if self.tty:
            self.stream.write("\r" + line)
            if done == total:
                self.stream.write("\n")
            self.stream.flush()
            self.shown = pct
        elif pct // 10 > self.shown or done == total:
            self.shown = pct // 10
            print(line, file=self.stream, flush=True)


class _RichProgress:
    """A rich progress bar on stderr (the ``cli`` extra), on a terminal."""

    def __init__(self, total: int, stream: TextIO, what: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn(f"simulating {what}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(file=stream), transient=False)
        self.task = self.bar.add_task("simulate", total=total)

    def __enter__(self) -> _RichProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def update(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)


def _progress_for(total: int, what: str, forced: bool) -> Any:
    """rich's bar on a terminal when rich is installed; plain text otherwise (on a terminal,
    or with --progress); nothing when stderr is not a terminal and --progress is not given."""
    tty = _isatty(sys.stderr)
    if tty:
        try:
            return _RichProgress(total, sys.stderr, what)
        except ImportError:
            pass
    return _Progress(total, sys.stderr, forced or tty, what)


def _ci(e: Estimate, pct: bool = False) -> str:
    if e.low is None or e.high is None:
        return ""
    if pct:
        return f"  ({100 * e.low:.1f}% to {100 * e.high:.1f}%)"
    return f"  ({e.low:.1f} to {e.high:.1f})"


def _print_summary(sim: Simulation, variant: Variant, out: TextIO) -> None:
    """The text summary: means and win rates with their 95% confidence intervals."""
    from ._state import new_game

    s = sim.summary()
    n = s.n
    st = new_game(variant, sim.players, seed=sim.seed)  # for the sides' names
    unit = "deal" if sim.mode == "deals" else "game"
    names = list(sim.bots)
    bots_text = names[0] if len(set(names)) == 1 else ", ".join(names)
    print(f"{variant.name}: {n} {unit}(s), {sim.players} players, bots: {bots_text}, "
          f"seeds {sim.seed}..{sim.seed + n - 1}", file=out)
    print("means with 95% confidence intervals in parentheses", file=out)
    print(f"average actions per {unit}: {s.actions.mean:.1f}{_ci(s.actions)}", file=out)
    if sim.mode == "games":
        print(f"average hands per game: {s.hands.mean:.1f}{_ci(s.hands)}", file=out)
    print(f"{unit}s ended:", file=out)
    for how, k in s.endings.items():
        print(f"  {how + ':':<22}{k:>6}  {100 * k / n:5.1f}%", file=out)
    print("average hand score per side:" if sim.mode == "deals" else "average final score per side:", file=out)
    for side in range(st.sides):
        e = s.scores[side]
        print(f"  {_side_name(st, side) + ':':<30}{e.mean:>9.1f}{_ci(e)}", file=out)
    what = "the higher hand score" if sim.mode == "deals" else "the higher final score"
    print(f"{unit}s won per side ({what}):", file=out)
    for side in range(st.sides):
        k = s.win_counts[side]
        print(f"  {_side_name(st, side) + ':':<30}{k:>6}  {100 * k / n:5.1f}%{_ci(s.wins[side], True)}",
              file=out)
    print(f"  {'tied:':<30}{s.ties:>6}  {100 * s.ties / n:5.1f}%", file=out)


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    variant = _load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    players = args.players if args.players is not None else variant.default_players
    specs = [n.strip() for n in args.bots.split(",") if n.strip()]
    games = args.games is not None
    total = args.games if games else args.deals
    try:
        variant.table(players)
        specs = _bots_for(specs, players)
        for spec in specs:
            bot_factory(spec)
        if args.backend == "ray":
            import ray  # noqa: F401 - only to say early that it is missing
    except ImportError:
        print('canasta simulate: --backend ray needs the ray package: pip install "canasta[ray]"',
              file=sys.stderr)
        return USAGE
    except (VariantError, SimulationError) as e:
        print(f"canasta simulate: {e}", file=sys.stderr)
        return USAGE
    what = "games" if games else "deals"
    try:
        with _progress_for(total, what, args.progress) as bar:
            sim = simulate(variant, deals=None if games else total, games=total if games else None,
                           players=players, bots=specs, seed=args.seed, jobs=args.jobs,
                           backend=args.backend, max_hands=args.max_hands, progress=bar.update,
                           ray_address=args.ray_address)
    except SimulationError as e:
        print(f"canasta simulate: {e}", file=sys.stderr)
        return 1
    if args.format == "text":
        if args.output is not None:
            try:
                with open(args.output, "w", encoding="utf-8") as f:
                    _print_summary(sim, variant, f)
            except OSError as e:
                print(f"{args.output}: (file): {e.strerror or e}", file=sys.stderr)
                return 1
            return 0
        _print_summary(sim, variant, out)
        return 0
    # rows as JSON Lines or CSV: on stdout (the summary then goes to stderr), or to --output
    if args.output is not None:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                sim.write(f, args.format)
        except OSError as e:
            print(f"{args.output}: (file): {e.strerror or e}", file=sys.stderr)
            return 1
        _print_summary(sim, variant, out)
    else:
        sim.write(out, args.format)
        out.flush()
        _print_summary(sim, variant, sys.stderr)
    return 0


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    try:
        from ._record import RecordError, load_record, replay_lenient
    except ImportError as e:  # the record module is newer than this command
        print(f"canasta replay: game records are not available: {e}", file=sys.stderr)
        return 2
    label = _short(args.file)
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        if isinstance(e, UnicodeDecodeError):
            print(f"{label}: (file): not UTF-8 text ({e.reason} at byte {e.start}); save the record "
                  "as UTF-8", file=sys.stderr)
        else:
            print(f"{label}: (file): cannot read: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 1
    except UnicodeDecodeError as e:
        print(f"{label}: (file): not a text file ({e.reason})", file=sys.stderr)
        return 1
    try:
        record = load_record(text)
        result = replay_lenient(record)
        st = record.initial_state()
    except RecordError as e:
        print(f"{label}: {e}", file=sys.stderr)
        return 1
    stops = {(e.hand, e.move): e for e in result.errors if e.hand is not None}
    names = list(record.names) or [f"seat {s}" for s in range(record.players)]
    pr = _Printer(out, names, show_hands=args.show_hands, summary=False)
    variant = record.variant
    pr.p(f"Game record {label}: {variant.name} ({variant.description})")
    pr.p(f"{record.players} players, seed {record.seed}, {_game_words(variant)}; "
         f"{_plural(len(record.hands), 'hand')}, {_plural(record.moves, 'move')}")
    meta = [f"{k}: {v}" for k, v in (("date", record.date), ("event", record.event),
                                     ("comment", record.comment)) if v]
    for line in meta:
        pr.p(f"  {line}")
    layout = variant.table(record.players).sides
    for s in range(record.players):
        name = f": {record.names[s]}" if record.names else ""
        pr.p(f"  seat {s} (side {layout[s]}){name}")

    def who(state: GameState, seat: int) -> str:
        base = _who(state, seat)
        return f"{base} {record.names[seat]}" if record.names else base

    stopped = False
    for h, moves in enumerate(record.hands):
        if h > 0:
            if not st.is_hand_over or st.is_game_over:
                stopped = True
                break
            st = st.next_hand()
        pr.header(st)
        for m, move in enumerate(moves):
            problem = stops.get((h + 1, m + 1))
            seat = st.current_player
            if problem is not None or seat is None:
                mover = f"{who(st, seat)}: " if seat is not None else ""
                why = problem.problem if problem is not None else "nobody is to play"
                pr.p(f"  {m + 1:>3}. {mover}{move}  <-- {why}")
                stopped = True
                break
            try:
                after = st.apply(move)
            except ValueError as e:  # replay_lenient found no problem here; never expected
                pr.p(f"  {m + 1:>3}. {who(st, seat)}: {move}  <-- {e}")
                stopped = True
                break
            pr.p(f"  {m + 1:>3}. {who(st, seat)}: {after.history[-1]}"
                 f"{_action_detail(st, after.history[-1], after, seat, indent=' ' * 7)}")
            st = after
            if st.is_hand_over:
                pr.hand_end(st)
        if stopped:
            break
    pr.p()
    letters = _side_letters(st)
    totals = ", ".join(f"side {letters[s]} {t}" for s, t in enumerate(st.totals))
    if st.is_game_over:
        winners = " and ".join(f"side {letters[s]}" for s in st.winners)
        pr.p(f"=== Game over: {winners} {'win' if len(st.winners) > 1 else 'wins'} ({totals})")
    elif stopped:
        pr.p(f"=== Replay stopped in hand {st.hand_number + 1} ({totals})")
    else:
        pr.p(f"=== The record ends in hand {st.hand_number + 1}, game not over ({totals})")
    if result.errors:
        print(f"{label}: {_plural(len(result.errors), 'problem')} in the record:", file=sys.stderr)
        for err in result.errors:
            print(f"{label}: {err}", file=sys.stderr)
        return 1
    return 0


def _add_variant_arg(p: argparse.ArgumentParser, default: Optional[str] = DEFAULT_VARIANT) -> None:
    if default is None:
        p.add_argument("variant", metavar="VARIANT",
                       help="a bundled variant name (see 'canasta variants') or a variant file")
    else:
        p.add_argument("variant", nargs="?", default=default, metavar="VARIANT",
                       help=f"a bundled variant name or a variant file (default: {default}; "
                            "see 'canasta variants')")


def _add_players_seed(p: argparse.ArgumentParser, seed_help: str) -> None:
    p.add_argument("--players", "-p", type=_int_in(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="N",
                   help="number of players (default: the variant's usual table)")
    p.add_argument("--seed", "-s", type=_int_in(-MAX_SEED, MAX_SEED), default=0, metavar="S", help=seed_help)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command."""
    parser = argparse.ArgumentParser(
        prog="canasta",
        description="The rules of Canasta in every documented variant: play against bots, watch "
                    "bots play, simulate many deals, and inspect, check and compare variants.",
        epilog="Exit status, in every command: 0 success; 1 bad input (a file, a variant, an "
               "action, a record; 'diff': the variants differ); 2 a usage error.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({core_info()})",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser(
        "demo", help="watch bots play a complete game, move by move",
        description="Play a complete game between bots and print it move by move: each hand's "
                    "deal, every action, the table after each turn (each side's melds and red "
                    "threes, the pile's top card and whether it is frozen), each side's itemised "
                    "score, and the winner.",
    )
    _add_variant_arg(demo)
    _add_players_seed(demo, "seed of the deal and the bots; the same seed replays the same game (default: 0)")
    demo.add_argument("--bots", "-b", default="greedy", metavar="LIST",
                      help="bot per seat, comma separated, from: " + ", ".join(BOTS)
                           + "; one name plays every seat (default: greedy)")
    demo.add_argument("--max-hands", type=_int_in(1, MAX_COUNT), default=DEFAULT_MAX_HANDS, metavar="H",
                      help=f"stop after H hands if nobody has won (default: {DEFAULT_MAX_HANDS})")
    demo.add_argument("--show-hands", action="store_true",
                      help="print every player's hand at each deal")
    demo.add_argument("--summary", action="store_true",
                      help="print only the deals and the scores, not every action or the table")
    demo.add_argument("--save", metavar="FILE", default=None,
                      help="write the game to FILE as a game record (TOML) after every move, for "
                           "'canasta replay FILE'")
    demo.set_defaults(func=_cmd_demo)

    play = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Play a complete game against bots. Before each of your decisions you see "
                    "your hand, the melds, red threes, the pile, the stock, the scores and the "
                    "numbered legal actions; answer with a number or the notation (e.g. 'draw', "
                    "'take 7 7', 'meld 7 7 7', 'add JK to 7', 'discard 5'). Also: 'help' (the "
                    "notation, with examples from your position), 'hint' (what the greedy bot would "
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
    play.add_argument("--players", "-p", type=_int_in(MIN_PLAYERS, MAX_PLAYERS), default=None, metavar="N",
                      help="number of players (default: the variant's usual table; not with --resume)")
    play.add_argument("--seed", "-s", type=_int_in(-MAX_SEED, MAX_SEED), default=None, metavar="S",
                      help="seed of the deal and the bots (default: 0; not with --resume)")
    play.add_argument("--seat", "-k", type=_int_in(0, MAX_PLAYERS - 1), default=None, metavar="K",
                      help="your seat, 0 to players-1 (default: 0, who plays first in the first hand "
                           "when the dealer sits to the right; with --resume: the seat you played)")
    play.add_argument("--bots", "-b", default=None, choices=sorted(BOTS),
                      help="the bot that plays every other seat (default: greedy; with --resume: the "
                           "bots of the saved game)")
    play.add_argument("--save", metavar="FILE", default=None,
                      help="write the game to FILE as a game record (TOML) after every move, replacing "
                           "FILE; an undo rewrites it without the moves taken back and notes the undo "
                           "in its comment")
    play.add_argument("--resume", metavar="FILE", default=None,
                      help="continue the game saved in FILE (by --save): its rules, players, seed and "
                           "moves are replayed, and the game goes on from where it stopped, saved to "
                           "FILE again (or to --save FILE)")
    play.set_defaults(func=_cmd_play)

    simulate = sub.add_parser(
        "simulate", help="bots play many deals or games; rows and statistics",
        description="Bots play N first deals (--deals) or N whole games (--games); deal or game i "
                    "is dealt with seed S+i and its bots are seeded from that seed, so every row "
                    "is the same whatever --jobs and --backend. --format text (the default) prints "
                    "statistics: actions, how the deals or games ended, the mean score of each "
                    "side and how often each side won, with 95% confidence intervals. --format "
                    "jsonl or csv prints one row per deal or game (seed, winner, actions, hands, "
                    "ending, each side's score) on stdout, or in --output FILE, and the "
                    "statistics on stderr (on stdout with --output). Exit status: 0 done, 1 a "
                    "bot failed or the output could not be written, 2 a bad argument.",
    )
    _add_variant_arg(simulate, default=None)
    count = simulate.add_mutually_exclusive_group(required=True)
    count.add_argument("--deals", "-n", type=_int_in(1, MAX_COUNT), metavar="N", help="play N first deals")
    count.add_argument("--games", "-g", type=_int_in(1, MAX_COUNT), metavar="N",
                       help="play N whole games (each until a side wins, at most --max-hands hands)")
    _add_players_seed(simulate, "seed of the first deal or game; row i uses S+i (default: 0)")
    simulate.add_argument("--bots", "-b", default="greedy", metavar="LIST",
                          help="bot per seat, comma separated: " + ", ".join(BUILTIN_BOTS)
                               + ", or an importable module:callable (called with a seed, it returns a "
                                 "bot); one plays every seat (default: greedy)")
    simulate.add_argument("--jobs", "-j", type=_int_in(1, MAX_JOBS), default=1, metavar="J",
                          help="worker processes (default: 1, this process)")
    simulate.add_argument("--backend", choices=("local", "ray"), default="local",
                          help="local processes, or Ray tasks (pip install \"canasta[ray]\"; a local "
                               "Ray instance with J CPUs unless --ray-address is given) (default: local)")
    simulate.add_argument("--ray-address", default=None, metavar="ADDR",
                          help="the Ray cluster to run on (default: start a local instance)")
    simulate.add_argument("--format", "-f", choices=("text", "jsonl", "csv"), default="text",
                          help="text statistics, or one row per deal or game as JSON Lines or CSV "
                               "(default: text)")
    simulate.add_argument("--output", "-o", default=None, metavar="FILE",
                          help="write the rows (or the text statistics) to FILE")
    simulate.add_argument("--max-hands", type=_int_in(1, MAX_COUNT), default=DEFAULT_MAX_HANDS, metavar="H",
                          help=f"--games: stop a game after H hands if nobody has won, the leader "
                               f"winning (default: {DEFAULT_MAX_HANDS})")
    simulate.add_argument("--progress", action="store_true",
                          help="show progress on stderr even when it is not a terminal")
    simulate.set_defaults(func=_cmd_simulate)

    variants = sub.add_parser(
        "variants", help="list the bundled variants",
        description="List each bundled variant: its name, description and table sizes.",
    )
    variants.set_defaults(func=_cmd_variants)

    show = sub.add_parser(
        "show", help="print a variant's fully resolved rules as TOML",
        description="Print every setting of a variant, the inherited ones included, as TOML. "
                    "A variant that cannot be loaded prints each problem as "
                    "'file: key.path: message' on stderr (exit status 1).",
    )
    _add_variant_arg(show, default=None)
    show.set_defaults(func=_cmd_show)

    validate = sub.add_parser(
        "validate", help="check variant files and list every problem",
        description="Load each variant file and print 'FILE: ok', or each problem as "
                    "'file: key.path: message'. Exit status 1 if any file has a problem.",
    )
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="variant files (or bundled variant names) to check")
    validate.set_defaults(func=_cmd_validate)

    diff = sub.add_parser(
        "diff", help="the settings that differ between two variants",
        description="Compare two variants (names or files), setting by setting after inheritance: "
                    "print 'key: A-value -> B-value' for each setting that differs, sorted by key, "
                    "or 'no differences'. Exit status, like diff(1): 0 no differences, 1 they differ "
                    "(or a variant cannot be loaded), 2 a usage error.",
    )
    diff.add_argument("a", metavar="A", help="a bundled variant name or a variant file")
    diff.add_argument("b", metavar="B", help="a bundled variant name or a variant file")
    diff.add_argument("--all", action="store_true",
                      help="also compare name, description and source")
    diff.set_defaults(func=_cmd_diff)

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
    replay.set_defaults(func=_cmd_replay)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``canasta`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit
    status: 0 success, 1 bad input (a file, a variant, an action, a record; ``diff``: the
    variants differ), 2 a usage error (an unknown command or option, a bad option value).

    Like any argparse program, ``--help`` and ``--version`` raise ``SystemExit(0)`` and a
    usage error ``SystemExit(2)`` after printing the usage; nothing else escapes, and no
    traceback is printed."""
    _tolerant(sys.stdout, "backslashreplace")  # a file name that is not UTF-8 prints as escapes
    _tolerant(sys.stderr, "backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)  # --help, --version: SystemExit(0); a usage error: SystemExit(2)
    if not getattr(args, "command", None):
        parser.print_help()
        return USAGE
    try:
        return int(args.func(args, sys.stdout))
    except BrokenPipeError:  # e.g. piped into head
        try:
            sys.stdout = open(os.devnull, "w")  # no second error when Python flushes at exit
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except (ValueError, TypeError) as e:  # every canasta error is one: bad input
        print(f"canasta {args.command}: {e}", file=sys.stderr)
        return BAD_INPUT
    except Exception as e:  # noqa: BLE001 - never a traceback; say what failed
        print(f"canasta {args.command}: internal error: {type(e).__name__}: {e} (please report it)",
              file=sys.stderr)
        return BAD_INPUT


def _tolerant(stream: Any, errors: str) -> None:
    """Make a text stream replace what it cannot encode or decode, where it can be told to."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=errors)
        except (ValueError, OSError, TypeError):
            pass


def _int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (a usage error otherwise)."""

    def parse(text: str) -> int:
        t = text.strip()
        digits = t[1:] if t[:1] in "+-" else t
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20:
            raise argparse.ArgumentTypeError(f"expected an integer from {low} to {high}, got {_short(text)!r}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its messages
    return parse


def _short(text: str) -> str:
    """A file name or typed text for a message: at most 100 characters."""
    return text if len(text) <= 100 else f"{text[:60]}...{text[-30:]} ({len(text)} characters)"
