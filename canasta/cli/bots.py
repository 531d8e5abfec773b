"""The bots of the terminal game, by name: the one place ``demo``, ``play`` and ``hint`` choose a
bot from.

Adding a bot to the command line is one line in :data:`BOTS`: its name, how to make one from a
seed, and a sentence for ``--help``. ``canasta play --bots NAME`` then plays it at the other
seats, ``canasta play --hint-bot NAME`` asks it for hints, and ``canasta demo --bots NAME,...``
seats it; the name is written into saved games (``"NAME bot"``), so ``--resume`` finds it again.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .._bots import Bot, GreedyBot, RandomBot


class BotKind(NamedTuple):
    """A bot the command line knows by name."""

    make: Callable[[int], Bot]
    """Makes the bot from a seed (the same seed, the same choices)."""
    about: str
    """What it plays, in a few words (for ``--help``)."""


BOTS: dict[str, BotKind] = {
    "greedy": BotKind(GreedyBot, "melds as soon as it can, takes the pile when it can, discards what it needs least"),
    "random": BotKind(RandomBot, "a random legal action"),
}
"""The bots by name; the first is the default opponent and the default adviser of ``hint``."""

DEFAULT_BOT = next(iter(BOTS))


def make_bot(name: str, seed: int) -> Bot:
    """A new bot of kind ``name`` (a key of :data:`BOTS`) seeded with ``seed``."""
    return BOTS[name].make(seed)


def bot_names() -> str:
    """The bots' names for a message or a help text: ``greedy, random``."""
    return ", ".join(BOTS)
