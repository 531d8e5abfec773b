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
import os
import sys
from typing import Any, Callable, Optional, Sequence, TextIO

import tomli_w

from ._actions import Action, ActionParseError, Discard, Draw, Take, parse_action
from ._bots import Bot, GreedyBot, RandomBot, _ask, play_game
from ._simulate import BUILTIN_BOTS, Estimate, Simulation, SimulationError, _bots_for, bot_factory, simulate
from ._cards import CARD_NAMES, N_KINDS, WILD_RANK, _TOKENS, cards_text, sequence_text
from ._state import GameState, HandResult, Phase, TableMeld
from ._observation import observation
from ._variant import MAX_PLAYERS, MIN_PLAYERS, Variant, VariantError, load_variant, variant_names, variant_to_dict
from ._version import __version__

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
            self.p(f"  {_who(before, seat)}: {action}{_action_detail(before, action, after, seat)}")
        if after.is_hand_over:
            self.hand_end(after)

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
    faced (also the dealt ones faced as the next turn begins, on a line of their own), the
    size of a pile taken, a pile frozen, a hand emptied. ``me`` is the seat called "you"."""
    notes = []
    same_hand = after.hand_number == before.hand_number
    side = before.side_of(seat)
    faced = [after.red_threes[s] - before.red_threes[s] if same_hand else 0 for s in range(before.sides)]
    if isinstance(action, Draw) and same_hand:
        got = [k for k in range(N_KINDS)
               for _ in range(max(0, after.hands[seat][k] - before.hands[seat][k]))]
        if reveal and got:
            notes.append("drew " + " ".join(_TOKENS[k] for k in sorted(got, reverse=True)))
        elif not reveal:
            n = len(before.stock) - len(after.stock) - max(0, faced[side])
            notes.append(f"drew {_plural(n, 'card')}")
        if faced[side] > 0:
            notes.append(f"faced {_plural(faced[side], 'red three')}")
            faced[side] = 0
    elif isinstance(action, Take):
        notes.append(f"pile of {len(before.pile)}")
    elif isinstance(action, Discard) and not after.is_hand_over and after.frozen and not before.frozen:
        notes.append("the pile is frozen")
    if not after.is_hand_over and after.current_player == seat and sum(after.hands[seat]) == 0:
        notes.append("hand empty")
    text = f"  ({'; '.join(notes)})" if notes else ""
    for s, n in enumerate(faced):
        if n > 0:  # a dealt red three, faced as its holder's turn begins
            nxt = after.current_player
            if nxt is not None and after.side_of(nxt) == s:
                who = "you face" if nxt == me else f"{_who(after, nxt)} faces"
            else:
                who = f"side {_side_letters(after)[s]} faces"
            text += f"\n{indent}{who} {_plural(n, 'red three')}"
    return text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _canasta_kind(m: TableMeld, variant: Optional[Variant]) -> str:
    """" (natural canasta)" and the like when ``m`` is a canasta under ``variant``'s rules, else ""."""
    if variant is None:
        return ""
    rules = variant.melds
    if m.size < rules.canasta_size:
        return ""
    if m.rank == WILD_RANK:
        return " (wild canasta)"
    if m.naturals < rules.canasta_min_naturals:
        return ""
    return " (natural canasta)" if m.wilds == 0 else " (mixed canasta)"


def _melds_text(melds: tuple[TableMeld, ...], variant: Optional[Variant] = None) -> str:
    """A side's melds, canastas marked; where it holds two of one rank, each is named as
    ``add`` names it (``7#2``)."""
    ranks = [m.rank for m in melds]
    parts = []
    for i, m in enumerate(melds):
        text = f"{m}{_canasta_kind(m, variant)}"
        if ranks.count(m.rank) > 1:
            name = "wild" if m.rank == WILD_RANK else _TOKENS[m.rank]
            text = f"{name}#{ranks[:i + 1].count(m.rank)}: {text}"
        parts.append(text)
    return "; ".join(parts)


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
    top = _TOKENS[obs.pile_top] if obs.pile_top is not None else "none"
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


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _Quit(Exception):
    """The person ended the game (``quit`` or end of input)."""


def _ask_person(st: GameState, me: int, out: TextIO, read: Callable[[str], str]) -> Action:
    """Show the person's view and the numbered legal actions; read until a legal action is given."""
    for line in _view(st, me):
        print(line, file=out)
    acts = st.legal_actions()
    print("    legal actions:", file=out)
    width = len(str(len(acts)))
    for i, a in enumerate(acts, 1):
        print(f"      {i:>{width}}. {a}", file=out)
    while True:
        try:
            line = read("your action (number or notation; 'quit' ends): ")
        except EOFError:
            print(file=out)
            raise _Quit from None
        text = line.strip()
        if not text:
            continue
        if text.lower() in _QUIT:
            raise _Quit
        if text.isascii() and text.isdigit():
            n = int(text) if len(text) <= 9 else 0
            if 1 <= n <= len(acts):
                return acts[n - 1]
            print(f"no action number {_short(text)}: choose 1 to {len(acts)}", file=out)
            continue
        try:
            action = parse_action(text)
            reason = st.why_illegal(action)
        except ActionParseError as e:
            print(f"cannot read that: {e}", file=out)
            continue
        except Exception as e:  # noqa: BLE001 - whatever was typed, the prompt asks again
            print(f"cannot read that: {_short(text)!r} ({type(e).__name__}: {e}); type a number "
                  "from the list or an action such as 'draw' or 'discard 5'", file=out)
            continue
        if reason is None:
            return action
        print(f"{action} is not allowed: {reason}", file=out)


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    variant = _load(args.variant, sys.stderr)
    if variant is None:
        return BAD_INPUT
    players = args.players if args.players is not None else variant.default_players
    try:
        variant.table(players)
    except VariantError as e:
        print(f"canasta play: {e}", file=sys.stderr)
        return USAGE
    me = args.seat
    if not 0 <= me < players:
        print(f"canasta play: --seat must be 0 to {players - 1}", file=sys.stderr)
        return USAGE
    from ._state import new_game

    st = new_game(variant, players, seed=args.seed)
    bots = {s: BOTS[args.bots](args.seed * 1000 + s) for s in range(players) if s != me}
    names = [("you" if s == me else args.bots) for s in range(players)]
    pr = _Printer(out, names, show_hands=False, summary=False)
    pr.p(f"Canasta: {variant.name} ({variant.description})")
    pr.p(f"{players} players, seed {args.seed}, first to {variant.game.target} wins")
    layout = variant.table(players).sides
    for s in range(players):
        who = "you" if s == me else f"a {args.bots} bot"
        pr.p(f"  seat {s} (side {layout[s]}): {who}")
    pr.p("Type an action's number or its notation (e.g. 'draw', 'meld 7 7 7', 'discard 5'); 'quit' ends.")

    echo = not _isatty(sys.stdin)
    _tolerant(sys.stdin, "replace")  # a line that is not UTF-8 is read, then refused as an action

    def read(prompt: str) -> str:
        out.flush()
        line = input(prompt)
        if echo:  # scripted input: show it, so that the transcript reads like a session
            print(line, file=out)
        return line

    try:
        while True:
            pr.header(st)
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                action = _ask_person(st, me, out, read) if seat == me else _ask(bots[seat], st)
                after = st.apply(action)
                who = "you" if seat == me else _who(st, seat)
                pr.p(f"  {who}: {action}{_action_detail(st, action, after, seat, reveal=seat == me, me=me)}")
                st = after
            pr.hand_end(st)
            if st.is_game_over:
                break
            st = st.next_hand()
    except _Quit:
        pr.p("Game ended.")
        return 0
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
    pr.p(f"{record.players} players, seed {record.seed}, first to {variant.game.target} wins; "
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
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser(
        "demo", help="watch bots play a complete game, move by move",
        description="Play a complete game between bots and print it move by move: each hand's "
                    "deal, every action, each side's itemised score, and the winner.",
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
                      help="print only the deals and the scores, not every action")
    demo.set_defaults(func=_cmd_demo)

    play = sub.add_parser(
        "play", help="play a game in the terminal against bots",
        description="Play a complete game against bots. Before each of your decisions you see "
                    "your hand, the melds, red threes, the pile, the stock, the scores and the "
                    "numbered legal actions; answer with a number or the notation (e.g. 'draw', "
                    "'take 7 7', 'meld 7 7 7', 'add JK to 7', 'discard 5'). 'quit' or end of "
                    "input ends the game.",
    )
    _add_variant_arg(play)
    _add_players_seed(play, "seed of the deal and the bots (default: 0)")
    play.add_argument("--seat", "-k", type=_int_in(0, MAX_PLAYERS - 1), default=0, metavar="K",
                      help="your seat, 0 to players-1 (default: 0, who plays first in the first hand "
                           "when the dealer sits to the right)")
    play.add_argument("--bots", "-b", default="greedy", choices=sorted(BOTS),
                      help="the bot that plays every other seat (default: greedy)")
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
    replay.add_argument("file", metavar="FILE", help="a game record file (TOML)")
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
