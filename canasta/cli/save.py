"""Saving a game as it goes: a game record rewritten whole after every move, and reading one back."""

from __future__ import annotations

import datetime
import os
import sys
import tempfile
from typing import Optional, Sequence

from .._files.record_text import dump_record, load_record
from .._files.records import GameRecord, RecordError
from .._state import GameState
from .common import short

PERSON = "you"
"""The name of the person's seat in a record that ``canasta play`` saves."""
BOT_NAME = "{} bot"
"""The name of a bot's seat in a saved record: ``greedy bot``, ``random bot``."""


class SaveFile:
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
            return f"{short(self.path)}: cannot write: {getattr(e, 'strerror', None) or e}"
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


def read_record_file(path: str) -> Optional[GameRecord]:
    """The record in ``path``, or None after saying on stderr what is wrong (naming the file)."""
    label = short(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        print(f"{label}: not UTF-8 text ({e.reason} at byte {e.start}); not a saved game",
              file=sys.stderr)
        return None
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the name
        print(f"{label}: cannot read: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return None
    try:
        return load_record(text)
    except RecordError as e:
        print(f"{label}: not a saved game (a game record, as 'canasta play --save' writes): {e}",
              file=sys.stderr)
        return None
