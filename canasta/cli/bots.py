"""The bots of the terminal game, by name: the one place ``demo``, ``play``, ``hint`` and
``simulate`` choose a bot from. Its names are those of :data:`canasta._simulate.BUILTIN_BOTS`
(``simulate(bots="...")``), every one of them, so that every command takes every built-in bot.

Adding a bot to the command line is one line in :data:`BOTS` (and its name in
``BUILTIN_BOTS``): its name, how to make one from a seed and a time limit, a few words for
``--help``, and (optionally) how it explains a choice. ``canasta play
--bots NAME`` then plays it at the other seats, ``canasta play --hint-bot NAME`` asks it for
hints, and ``canasta demo --bots NAME,...`` seats it; the name is written into saved games
(``"NAME bot"``), so ``--resume`` finds it again.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, NamedTuple, Optional, Sequence, TextIO

from .._actions import Action, Add, Answer, Ask, Combine, Discard, Done, Draw, Meld, Pass, Retract, Take
from .._bots import Bot, GreedyBot, RandomBot, _ask
from .._ismcts import ISMCTSBot
from .._search import SearchBot
from .._simulate import BUILTIN_BOTS
from .._cards import KIND_OF, N_KINDS, SEQUENCE_RANK, SUIT_OF, Card, code_words
from .._state import GameState
from .._fields import Phase, TableMeld
from .._view import canasta_kind
from .common import isatty, plural, short


class BotKind(NamedTuple):
    """A bot the command line knows by name."""

    make: Callable[[int, float], Bot]
    """Makes the bot from a seed and the seconds it may think over a decision (ignored by the
    bots that do not search)."""
    about: str
    """What it plays, in a few words (for ``--help``)."""
    explain: Optional[Callable[[GameState, Action, Bot], str]] = None
    """Why it plays an action in a state, for ``hint``, given the bot that chose it (None: "the
    NAME bot's choice")."""
    thinks: bool = False
    """Whether it searches against the clock (the terminal then says it is thinking)."""


def make_bot(name: str, seed: int, seconds: Optional[float] = None) -> Bot:
    """A new bot of kind ``name`` (a key of :data:`BOTS`) seeded with ``seed``, thinking at most
    ``seconds`` a decision if it searches (default :data:`ISMCTS_SECONDS`)."""
    return BOTS[name].make(seed, ISMCTS_SECONDS if seconds is None else seconds)


def thinks(name: str) -> bool:
    """Whether the bot ``name`` searches against the clock (seconds a decision)."""
    return BOTS[name].thinks


def bot_names() -> str:
    """The bots' names for a message or a help text: ``greedy, random``."""
    return ", ".join(BOTS)


def advice(name: str, st: GameState, seed: int, seconds: Optional[float] = None) -> tuple[Action, str]:
    """What the bot ``name``, made afresh from ``seed``, would play for the player to act in
    ``st`` (the same advice every time in a position, but from a bot searching against the
    clock), and why."""
    bot = make_bot(name, seed, seconds)
    action = _ask(bot, st)
    explain = BOTS[name].explain
    return action, explain(st, action, bot) if explain is not None else f"the {name} bot's choice"


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


def greedy_reason(st: GameState, action: Action, bot: Optional[Bot] = None) -> str:
    """Why the greedy bot plays ``action`` here, in the words of its policy (see GreedyBot)."""
    seat = st.current_player
    assert seat is not None
    side = st.side_of(seat)
    acts = st.legal_actions()
    after = st.apply(action)
    if after.is_hand_over and after.result is not None and after.result.went_out == seat:
        return "it goes out"
    if isinstance(action, Take):
        return f"taking the pile brings {plural(len(st.pile), 'card')}"
    if isinstance(action, Draw):
        takes = [a for a in acts if isinstance(a, Take)]
        if not takes:
            return "the pile cannot be taken now"
        return (f"the pile ({plural(len(st.pile), 'card')}) could be taken only with a wild card, "
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
        kind = KIND_OF[card]  # (a suited card's rank)
        why = []
        if st.hands[seat][kind] == 1:
            why.append("you hold no pair of it")
        if not any(m.rank == kind or _extends(m, card) for s in range(st.sides) if s != side for m in st.melds[s]):
            why.append("the opponents have no meld to add it to")
        because = f" ({'; '.join(why)})" if why else ""
        name = code_words(card)
        return f"the card least worth keeping: {'an' if name[0] in 'aeiou' else 'a'} {name}{because}"
    return "the greedy bot's choice"


def _extends(meld: TableMeld, card: int) -> bool:
    """Whether ``card`` (a card code) would lengthen the sequence ``meld`` at one end."""
    if meld.rank < SEQUENCE_RANK or card < N_KINDS or SUIT_OF[card] != meld.rank - SEQUENCE_RANK:
        return False
    return KIND_OF[card] in (KIND_OF[meld.cards[0]] - 1, KIND_OF[meld.cards[-1]] + 1)


ISMCTS_SECONDS = 1.0
"""The seconds the ``ismcts`` and ``search`` bots think over a decision by default (at most 2 s,
a wait a person at the table accepts; ``--think`` sets it); a decision with one legal action, or
an answer to "may I go out?", is instant."""

MAX_THINK = 600.0
"""The most seconds ``--think`` allows a decision."""


def make_ismcts(seed: int, seconds: float) -> Bot:
    """An :class:`~canasta.ISMCTSBot` thinking ``seconds`` a decision."""
    return ISMCTSBot(seed, time_limit=seconds)


def make_search(seed: int, seconds: float) -> Bot:
    """A :class:`~canasta.SearchBot` thinking at most ``seconds`` a decision (its 32 rollouts
    a candidate, or fewer when the time is up)."""
    return SearchBot(seed, time_limit=seconds)


def search_reason(st: GameState, action: Action, bot: Optional[Bot] = None) -> str:
    """Why the flat Monte Carlo search plays ``action``: the greedy choice it found nothing
    better than, or the greedy choice it beat."""
    greedy = _ask(GreedyBot(0), st)
    tried = max((n for _, n in bot.last_values.values()), default=0) if isinstance(bot, SearchBot) else 0
    if not tried:  # (it searches its draws and discards; its other choices are the greedy policy's)
        return f"the greedy choice, which the search bot plays outside its draws and discards: " \
               f"{greedy_reason(st, action)}"
    over = f"over {plural(tried, 'sampled deal')} of the cards you cannot see"
    if greedy == action:
        return f"{over}, nothing played better than the greedy choice: {greedy_reason(st, action)}"
    return f"{over}, it scored better than the greedy choice, {greedy}"


def ismcts_reason(st: GameState, action: Action, bot: Optional[Bot] = None) -> str:
    """Why the tree search plays ``action``: the greedy choice it found nothing better than (with
    the greedy reason), or the greedy choice it beat, over how many sampled deals."""
    seat = st.current_player
    assert seat is not None
    samples = bot.last_iterations if isinstance(bot, ISMCTSBot) else 0
    over = f"over {plural(samples, 'deal')} of the cards you cannot see" if samples else "searching"
    guide = bot._guide if isinstance(bot, ISMCTSBot) else GreedyBot(0)
    greedy = _ask(guide, st)
    if greedy == action:
        if not samples:
            return greedy_reason(st, action)
        return f"{over}, the search found nothing better than the greedy choice: {greedy_reason(st, action)}"
    return f"{over}, the search rates it above the greedy choice, {greedy}"


BOTS: dict[str, BotKind] = {
    "greedy": BotKind(lambda seed, _: GreedyBot(seed),
                      "melds whenever it can, takes the pile, goes out as soon as it can", greedy_reason),
    "random": BotKind(lambda seed, _: RandomBot(seed), "plays a legal action at random"),
    "search": BotKind(make_search, "plays out sampled deals of the hidden cards for its draws and discards "
                      "(flat Monte Carlo search, --think seconds a decision)", search_reason, thinks=True),
    "ismcts": BotKind(make_ismcts, "searches sampled deals of the hidden cards (information-set tree search, "
                      "--think seconds a decision)", ismcts_reason, thinks=True),
}
"""The bots by name (those of ``simulate``'s ``BUILTIN_BOTS``, in its order); the first is the
default opponent and the default adviser of ``hint``."""


DEFAULT_BOT = next(iter(BOTS))


def seconds_arg(text: str) -> float:
    """An argparse type: seconds a decision, above 0 and at most :data:`MAX_THINK`."""
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (a number such as 0.5 or 2), got {short(text)!r}") from None
    if not 0 < value <= MAX_THINK:  # (also refuses nan)
        raise argparse.ArgumentTypeError(f"must be above 0 and at most {MAX_THINK:g} seconds, not {short(text)}")
    return value


def add_think_arg(p: argparse.ArgumentParser) -> None:
    """The ``--think SECONDS`` option of ``play`` and ``demo``."""
    searching = ", ".join(n for n, k in BOTS.items() if k.thinks)
    p.add_argument("--think", type=seconds_arg, default=None, metavar="SECONDS",
                   help=f"the most seconds a searching bot ({searching}) thinks over a decision "
                        f"(default: {ISMCTS_SECONDS:g}); a bot's turn is several decisions")


class Thinking:
    """Says on a terminal that a searching bot is thinking, on one line it clears when the bot
    has chosen (a turn of ``ismcts`` is several decisions, a second each by default): the wait
    is shown, never silent. Nothing is written when ``out`` is not a terminal, so a transcript
    stays the game's."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.tty = isatty(out)

    def start(self, who: str) -> None:
        if self.tty:
            self.out.write(f"  {who} is thinking ...")
            self.out.flush()

    def stop(self) -> None:
        if self.tty:
            self.out.write("\r\033[K")  # back to the line's start, and clear it
            self.out.flush()

    def ask(self, bot: Bot, st: GameState, who: str) -> Action:
        """``bot``'s choice in ``st``, the wait shown when there is a choice to think over."""
        if len(st.legal_actions()) < 2:
            return _ask(bot, st)
        self.start(who)
        try:
            return _ask(bot, st)
        finally:
            self.stop()

    def wrap(self, bot: Bot, who: str) -> Bot:
        """``bot``, showing its waits (for :func:`canasta.play_game`)."""
        return _ThinkingBot(bot, who, self)


class _ThinkingBot:
    """A bot whose decisions with a choice are shown as thinking (see :class:`Thinking`)."""

    def __init__(self, bot: Bot, who: str, thinking: Thinking) -> None:
        self.bot = bot
        self.who = who
        self.thinking = thinking

    def choose(self, observation: Any, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) < 2:
            return self.bot.choose(observation, legal_actions)
        self.thinking.start(self.who)
        try:
            return self.bot.choose(observation, legal_actions)
        finally:
            self.thinking.stop()
