"""A small multiplayer Canasta server: rooms, per-seat views, bots in seats, a SQLite save
after every action, restarts that resume every room exactly, and limits that hold against a
hostile client.

Run it (the standard library, ``canasta`` and the ``websockets`` package:
``pip install "canasta[examples]"``)::

    python examples/server/server.py                         # ws://127.0.0.1:8765
    python examples/server/server.py --port 0 --db /tmp/rooms.sqlite3
    python examples/server/server.py --help                  # the limits and their defaults

It listens on 127.0.0.1 only unless ``--host`` says otherwise, and prints ``serving on
ws://HOST:PORT`` when it is ready. The protocol is JSON messages over one websocket per
client (see README.md): ``create`` a room, ``join`` a seat with its token, ``act``.

How it uses the library (public API only):

* variant names from clients go through :func:`canasta.bundled_variant` (bundled variants
  only: a client cannot make the server read a file), and every room shares its variant's
  one :class:`canasta.Variant` (and so its compiled rules);
* each room's game is a :class:`canasta.GameRecorder` whose ``log`` appends each line of the
  game's log (:func:`canasta.dump_log`) to SQLite, one row per move, committed before the
  move is announced; at start-up every live room is read back with :func:`canasta.load_log`
  and :meth:`canasta.GameRecorder.resume`; a finished game is moved to the archive file;
* bots are :class:`canasta.GreedyBot` with ``positional=True``: their choices follow from
  their seed and the position, so a room resumed after a restart plays on exactly as it
  would have (the seeds are kept in SQLite with the room);
* after every action each connected seat gets the action's public events
  (:func:`canasta.events`, :meth:`canasta.Event.to_dict`) and its own view,
  ``state.observation(seat).to_dict(history=False, legend=False)``; a seat that joins gets
  the hand's event log so far (:func:`canasta.hand_events`) and the card legend;
* ``state.apply(action, seat=...)`` (through the recorder) refuses an action from a seat that
  is not to act.

The state's seed decides every deal of the game: it stays in SQLite and never reaches a
client; so do the hidden cards (only views and events are sent).

Against a hostile client (each a setting, see :class:`Limits`): every field of every message
is checked (type, range, length) before anything is made from it, and a bad one is answered
with an error naming the field; messages are at most ``max_message_bytes`` long, and JSON
nested too deeply is answered, not fatal; rooms are limited per client address and per
server, rooms of bots only more tightly, and a room left idle is archived; every bot of
every room plays from one queue, one move at a time, the rooms with a person's seat first
and the rooms of bots only with a pause after each move, so a person's move waits for at
most one bot move; a client that does not read its messages is disconnected rather than
holding the others up; a disconnection is one line of the log, not a traceback.

An example of the library's use, kept small: one process, no accounts (a seat's token is
its only credential), no spectators.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import math
import reprlib
import secrets
import sqlite3
import sys
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Optional

import websockets
from websockets.asyncio.server import ServerConnection, serve

import canasta

log = logging.getLogger("canasta.server")

SCHEMA = """
CREATE TABLE IF NOT EXISTS {db}.rooms (
    id TEXT PRIMARY KEY,
    seats TEXT NOT NULL,         -- JSON: per seat {{"kind": "human", "token": ...}} or {{"kind": "bot", "seed": ...}}
    client TEXT NOT NULL DEFAULT ''  -- the address that created it (for the limits per client)
);
CREATE TABLE IF NOT EXISTS {db}.log (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,          -- 0: the log's header; then one row per move
    line TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
"""


def limit(default: float, text: str) -> Any:
    """A field of :class:`Limits`, with its option's help text."""
    return field(default=default, metadata={"help": text})


@dataclass(frozen=True)
class Limits:
    """What one client, and all of them, may ask of the server. Each is a command-line option
    (``max_rooms`` is ``--max-rooms``) and a keyword of ``Limits``."""

    max_rooms: int = limit(1000, "live rooms on the server (a finished game's room is archived and no longer counts)")
    max_rooms_per_client: int = limit(20, "live rooms created from one client address")
    max_bot_rooms: int = limit(50, "live rooms with a bot in every seat (they play on by themselves)")
    max_bot_rooms_per_client: int = limit(2, "live rooms with a bot in every seat created from one client address")
    max_message_bytes: int = limit(4096, "the longest message a client may send (a longer one closes its "
                                         "connection, code 1009)")
    bot_moves_per_second: float = limit(200.0, "bot moves in the rooms of bots only, all together: a pause of "
                                               "1/N s after each (0: no pause, only a yield)")
    idle_minutes: float = limit(1440.0, "a room where nobody has acted or joined for this long, with nobody "
                                        "connected, is archived unfinished (it no longer counts; 0: never)")
    max_outbox: int = limit(256, "messages waiting to be sent to one connection: a client that does not read "
                                 "them is disconnected, code 1008")

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
                raise ValueError(f"{f.name}: expected a finite number of at least 0, got {value!r}")


class ProtocolError(ValueError):
    """A message the server refuses; its text names the field and what was expected."""


_short = reprlib.Repr()
_short.maxstring = _short.maxother = 40
_short.maxlevel = 2
_short.maxlist = _short.maxdict = 4

FIELDS = {"create": ("type", "variant", "players", "seats"),
          "join": ("type", "room", "seat", "token"),
          "act": ("type", "action")}
NAME_LENGTH = 40       # a variant's name
ROOM_LENGTH = 16       # a room's id (12 hex digits)
TOKEN_LENGTH = 64      # a seat's token (22 characters)
ACTION_LENGTH = 200    # an action's notation ("meld 5h 5h 5h 5h 5h 5h 5h", ...)
ACTION_ID = 2**63      # action ids are below this


def short(value: Any) -> str:
    """A value for an error message: never longer than about 40 characters."""
    return _short.repr(value)


def parse(raw: Any) -> dict[str, Any]:
    """A client's message, every field checked for its type and length (the values' ranges
    are checked by the message's handler, before anything is made from them)."""
    if not isinstance(raw, str):
        raise ProtocolError("message: expected JSON text (a text frame), got a binary frame")
    try:
        message = json.loads(raw)
    except RecursionError:
        raise ProtocolError("message: nested too deeply (messages are flat JSON objects)") from None
    except ValueError as e:
        raise ProtocolError(f"message: not JSON ({e})") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"message: expected a JSON object, got {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise ProtocolError(f"type: expected one of {', '.join(FIELDS)}, got {short(kind)}")
    for key in message:
        if key not in FIELDS[kind]:
            raise ProtocolError(f"{short(key)}: not a field of a {kind} message (its fields: "
                                f"{', '.join(FIELDS[kind])})")
    return message


def text(message: dict[str, Any], key: str, longest: int) -> str:
    """The field ``key``: a string of at most ``longest`` characters."""
    value = message.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise ProtocolError(f"{key}: expected a string of 1 to {longest} characters, got {short(value)}")
    return value


def whole(message: dict[str, Any], key: str, allowed: range | tuple[int, ...], what: str = "") -> int:
    """The field ``key``: an integer (not a bool, not a float, not a string) in ``allowed``."""
    value = message.get(key)
    if type(value) is not int or value not in allowed:
        if isinstance(allowed, tuple) and allowed != tuple(range(allowed[0], allowed[-1] + 1)):
            among = f"one of {', '.join(map(str, allowed))}"
        elif allowed[0] == allowed[-1]:
            among = f"{allowed[0]}"
        else:
            among = f"from {allowed[0]} to {allowed[-1]}"
        raise ProtocolError(f"{key}: expected a whole number, {among}{what}, got {short(value)}")
    return value


class Store:
    """The SQLite file of the live rooms (each room's seats, its game log one row per line),
    and the archive file the finished ones are moved to."""

    def __init__(self, path: str, archive: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit: each statement is saved
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("ATTACH DATABASE ? AS archive", (archive,))
        self.db.execute("PRAGMA archive.journal_mode=WAL")
        for db in ("main", "archive"):
            self.db.executescript(SCHEMA.format(db=db))
            columns = {row[1] for row in self.db.execute(f"PRAGMA {db}.table_info(rooms)")}
            if "client" not in columns:  # a file of an earlier version of this example
                self.db.execute(f"ALTER TABLE {db}.rooms ADD COLUMN client TEXT NOT NULL DEFAULT ''")

    def add_room(self, room: str, seats: list[dict[str, Any]], client: str) -> None:
        """A new room: its seats and the address that made it."""
        self.db.execute("INSERT INTO rooms (id, seats, client) VALUES (?, ?, ?)", (room, json.dumps(seats), client))

    def appender(self, room: str, start: int) -> Callable[[str], None]:
        """A ``log`` function for a :class:`canasta.GameRecorder`: each line, one row."""
        counter = [start]

        def append(line: str) -> None:
            self.db.execute("INSERT INTO main.log (room, n, line) VALUES (?, ?, ?)", (room, counter[0], line))
            counter[0] += 1

        return append

    def rooms(self) -> list[tuple[str, list[dict[str, Any]], str, str, int]]:
        """Every live room: its id, seats, creator's address, log text and number of log rows."""
        out = []
        for room, seats, client in self.db.execute("SELECT id, seats, client FROM main.rooms ORDER BY rowid"):
            lines = [line for (line,) in self.db.execute("SELECT line FROM main.log WHERE room = ? ORDER BY n",
                                                         (room,))]
            out.append((room, json.loads(seats), client, "".join(lines), len(lines)))
        return out

    def archive(self, room: str) -> None:
        """Move a room (its game over, or left idle) to the archive file. The archive's copy is
        committed first: a crash between the two leaves the room in both, and the next start-up
        moves a finished game again (an idle one plays on, and its archived copy is replaced
        when it is archived again)."""
        self.db.execute("BEGIN")
        self.db.execute("INSERT OR REPLACE INTO archive.rooms SELECT * FROM main.rooms WHERE id = ?", (room,))
        self.db.execute("DELETE FROM archive.log WHERE room = ?", (room,))
        self.db.execute("INSERT INTO archive.log SELECT * FROM main.log WHERE room = ?", (room,))
        self.db.execute("COMMIT")
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM main.log WHERE room = ?", (room,))
        self.db.execute("DELETE FROM main.rooms WHERE id = ?", (room,))
        self.db.execute("COMMIT")


class Client:
    """One connection: its address, and the messages waiting to be sent to it (sent by their
    own task, so that a slow reader holds up nobody else)."""

    def __init__(self, ws: ServerConnection, max_outbox: int) -> None:
        self.ws = ws
        self.address = str(ws.remote_address[0]) if ws.remote_address else "?"
        self.outbox: asyncio.Queue[str] = asyncio.Queue(max(1, max_outbox))
        self.sender = asyncio.get_running_loop().create_task(self._send_all())
        self.closing: Optional[asyncio.Task[None]] = None

    def post(self, message: dict[str, Any]) -> None:
        """Queue ``message``; disconnect the client if it has not read the last ``max_outbox``."""
        if self.closing is not None:
            return
        try:
            self.outbox.put_nowait(json.dumps(message))
        except asyncio.QueueFull:
            log.info("client %s: disconnected, %d messages unread", self.address, self.outbox.qsize())
            self.sender.cancel()
            self.closing = asyncio.get_running_loop().create_task(self.ws.close(1008, "too many unread messages"))

    async def _send_all(self) -> None:
        try:
            while True:
                await self.ws.send(await self.outbox.get())
        except websockets.ConnectionClosed:
            pass

    def stop(self) -> None:
        """The connection is over: send nothing more."""
        self.sender.cancel()


class Room:
    """One game: its recorder, its bots, and the clients connected to its seats."""

    def __init__(self, room_id: str, seats: list[dict[str, Any]], client: str, recorder: canasta.GameRecorder,
                 moves: int) -> None:
        self.id = room_id
        self.seats = seats
        self.client = client
        """The address that created the room."""
        self.recorder = recorder
        self.moves = moves
        """Lines of the log after its header: the moves and 'next hand' lines so far."""
        self.active = time.monotonic()
        """When a person last acted or joined here (or the room was made, or resumed)."""
        self.bots: dict[int, canasta.GreedyBot] = {
            s: canasta.GreedyBot(spec["seed"], variant=recorder.state.variant, positional=True)
            for s, spec in enumerate(seats) if spec["kind"] == "bot"}
        self.clients: dict[int, set[Client]] = {s: set() for s in range(len(seats))}

    @property
    def state(self) -> canasta.GameState:
        """The game as it stands."""
        return self.recorder.state

    @property
    def bots_only(self) -> bool:
        """A bot in every seat: the room plays on by itself."""
        return len(self.bots) == len(self.seats)

    @property
    def bot_to_act(self) -> bool:
        """A bot's turn: the game not over, and a bot the seat to act."""
        seat = self.state.current_player
        return seat is not None and seat in self.bots

    def view(self, seat: int, legend: bool = False) -> dict[str, Any]:
        """The seat's own view: what it may see, nothing more."""
        return self.state.observation(seat).to_dict(history=False, legend=legend)

    def announce(self, events: tuple[canasta.Event, ...]) -> None:
        """Send every connected seat the events and its view."""
        data = [e.to_dict() for e in events]
        for seat, clients in self.clients.items():
            if clients:
                message = {"type": "update", "room": self.id, "move": self.moves, "events": data,
                           "view": self.view(seat)}
                for client in list(clients):
                    client.post(message)

    def play(self, action: Any, seat: Optional[int]) -> None:
        """Play ``action`` for ``seat`` (None: a bot, already the seat to act), save it,
        announce it, deal the next hand when this one is over."""
        before = self.state
        after = self.recorder.apply(action, seat=seat)  # saved (one row) before it is announced
        self.moves += 1
        self.announce(canasta.events(before, action, after))
        if after.is_hand_over and not after.is_game_over:
            dealt = self.recorder.next_hand()
            self.moves += 1
            self.announce(canasta.deal_events(dealt))

    def play_bot(self) -> None:
        """One move of the bot to act."""
        st = self.state
        seat = st.current_player
        assert seat is not None
        self.play(self.bots[seat].choose(st.observation(seat), st.legal_actions()), None)


class Server:
    """The rooms, the SQLite store, the bots' queue, and the websocket handler."""

    def __init__(self, db_path: str, archive_path: Optional[str] = None, limits: Limits = Limits()) -> None:
        self.store = Store(db_path, archive_path or default_archive(db_path))
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        # rooms whose bot is to act: those with a person's seat first, then those of bots only
        self.queues: tuple[collections.deque[Room], collections.deque[Room]] = (collections.deque(),
                                                                                 collections.deque())
        self.queued: set[str] = set()
        self.bots_ready = asyncio.Event()
        self.worker: Optional[asyncio.Task[None]] = None
        self.sweeper: Optional[asyncio.Task[None]] = None

    def resume_all(self) -> None:
        """Read every live room back from SQLite and go on where it stopped (a finished one
        left by a crash, or by an earlier version of this example, is archived)."""
        archived = 0
        for room_id, seats, client, text, rows in self.store.rooms():
            recorder = canasta.GameRecorder.resume(canasta.load_log(text),
                                                   log=self.store.appender(room_id, rows))
            if recorder.state.is_game_over:
                self.store.archive(room_id)
                archived += 1
                continue
            self.rooms[room_id] = Room(room_id, seats, client, recorder, rows - 1)
            self.wake(self.rooms[room_id])
        log.info("resumed %d rooms (archived %d finished)", len(self.rooms), archived)

    def start(self) -> None:
        """Start the bots' task (in the running event loop)."""
        self.worker = asyncio.get_running_loop().create_task(self.run_bots())
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep())

    async def sweep(self) -> None:
        """Archive the rooms left idle (a person's rooms nobody plays would keep their
        creators and the server at their limits for ever)."""
        idle = self.limits.idle_minutes * 60
        while idle:
            await asyncio.sleep(max(0.1, min(60.0, idle / 4)))
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if (not room.bots_only and now - room.active > idle
                        and not any(room.clients.values())):
                    self.store.archive(room.id)
                    del self.rooms[room.id]
                    log.info("room %s: idle for %.0f minutes, archived unfinished", room.id, (now - room.active) / 60)

    def wake(self, room: Room) -> None:
        """Queue ``room`` if a bot is to act in it."""
        if room.bot_to_act and room.id not in self.queued:
            self.queued.add(room.id)
            self.queues[room.bots_only].append(room)
            self.bots_ready.set()

    async def run_bots(self) -> None:
        """Every room's bots, one move at a time, each room in turn: the rooms with a person's
        seat first, with a yield to the clients after each move, then the rooms of bots only,
        with a pause after each move. A person's message waits for at most one bot move, and
        the rooms of bots only get at most ``bot_moves_per_second``."""
        pause = 1 / self.limits.bot_moves_per_second if self.limits.bot_moves_per_second else 0
        while True:
            queue = self.queues[0] or self.queues[1]
            if not queue:
                self.bots_ready.clear()
                await self.bots_ready.wait()
                continue
            room = queue.popleft()
            self.queued.discard(room.id)
            if self.rooms.get(room.id) is room:
                try:
                    self.play(room, None, None)
                except Exception:  # (a bug, or the disk full: that room stops, the others play on)
                    log.exception("room %s: a bot's move failed; its bots stop until a person acts there", room.id)
            await asyncio.sleep(pause if room.bots_only else 0)

    def play(self, room: Room, action: Any, seat: Optional[int]) -> None:
        """An action in ``room`` (a bot's when ``seat`` is None); archive the room if the game
        is over, else queue it if a bot is to act."""
        if seat is not None:
            room.play(action, seat)
            room.active = time.monotonic()
        elif room.bot_to_act:
            room.play_bot()
        if room.state.is_game_over:
            self.store.archive(room.id)
            del self.rooms[room.id]
            log.info("room %s: game over, archived", room.id)
        else:
            self.wake(room)

    def create(self, message: dict[str, Any], client: Client) -> tuple[Room, list[Optional[str]]]:
        """A new room, every field of the message checked and the limits kept before anything
        is made."""
        name = text(message, "variant", NAME_LENGTH) if "variant" in message else "hoyle-1950"
        variant = canasta.bundled_variant(name)  # never a file
        counts = variant.player_counts
        players = variant.default_players
        if "players" in message:
            players = whole(message, "players", tuple(counts), f" (the table sizes of {variant.name})")
        kinds = message.get("seats", ["human"] + ["bot"] * (players - 1))
        if type(kinds) is not list or len(kinds) != players or any(k not in ("human", "bot") for k in kinds):
            raise ProtocolError(f"seats: expected a list of {players} of 'human' or 'bot', got {short(kinds)}")
        bots_only = "human" not in kinds
        live = list(self.rooms.values())
        mine = [r for r in live if r.client == client.address]
        lim = self.limits
        if len(live) >= lim.max_rooms:
            raise ProtocolError(f"create: the server has its most rooms ({lim.max_rooms}); try later")
        if len(mine) >= lim.max_rooms_per_client:
            raise ProtocolError(f"create: your live rooms are at the most a client may have "
                                f"({lim.max_rooms_per_client}); finish one first")
        if bots_only and sum(r.bots_only for r in live) >= lim.max_bot_rooms:
            raise ProtocolError(f"seats: the server has its most rooms of bots only ({lim.max_bot_rooms}); "
                                "give a seat to a person")
        if bots_only and sum(r.bots_only for r in mine) >= lim.max_bot_rooms_per_client:
            raise ProtocolError(f"seats: your live rooms of bots only are at the most a client may have "
                                f"({lim.max_bot_rooms_per_client}); give a seat to a person")
        seats: list[dict[str, Any]] = [
            {"kind": "human", "token": secrets.token_urlsafe(16)} if k == "human"
            else {"kind": "bot", "seed": secrets.randbits(62)} for k in kinds]
        state = canasta.new_game(variant, players, seed=None)  # a fresh seed, kept in the log only
        room_id = secrets.token_hex(6)
        self.store.add_room(room_id, seats, client.address)
        recorder = canasta.GameRecorder(state, log=self.store.appender(room_id, 0))
        room = self.rooms[room_id] = Room(room_id, seats, client.address, recorder, 0)
        self.wake(room)
        return room, [s.get("token") for s in seats]

    def join(self, message: dict[str, Any]) -> tuple[Room, int]:
        """The room and seat a join message names, its token checked."""
        room = self.rooms.get(text(message, "room", ROOM_LENGTH))
        if room is None:
            raise ProtocolError("room: no such room (or its game is over)")
        seat = whole(message, "seat", range(len(room.seats)), f" (the room has {len(room.seats)} seats)")
        token = text(message, "token", TOKEN_LENGTH)
        want = room.seats[seat].get("token")
        if want is None or not secrets.compare_digest(token, want):
            raise ProtocolError("token: not this seat's token")
        return room, seat

    async def handler(self, ws: ServerConnection) -> None:
        """One client's connection: each message answered, an error named, until it closes."""
        client = Client(ws, self.limits.max_outbox)
        joined: Optional[tuple[Room, int]] = None
        try:
            async for raw in ws:
                try:
                    message = parse(raw)
                    kind = message["type"]
                    if kind == "create":
                        room, tokens = self.create(message, client)
                        client.post({"type": "created", "room": room.id, "tokens": tokens})
                    elif kind == "join":
                        room, seat = self.join(message)
                        if joined is not None:
                            joined[0].clients[joined[1]].discard(client)
                        joined = (room, seat)
                        room.clients[seat].add(client)
                        room.active = time.monotonic()
                        client.post({"type": "joined", "room": room.id, "seat": seat, "move": room.moves,
                                     "log": [e.to_dict() for e in canasta.hand_events(room.state)],
                                     "view": room.view(seat, legend=True)})
                    else:  # act
                        if "action" not in message:
                            raise ProtocolError("action: missing (an id from legal_actions, or a notation)")
                        action = message["action"]
                        if type(action) is int:
                            action = whole(message, "action", range(ACTION_ID))
                        else:
                            action = text(message, "action", ACTION_LENGTH)
                        if joined is None:
                            raise ProtocolError("act: join a seat first")
                        self.play(joined[0], action, joined[1])
                except ValueError as e:  # ProtocolError, and canasta's errors (all ValueErrors)
                    client.post({"type": "error", "message": str(e)})
                except Exception:  # a bug of the server's (the message was checked): say so, go on
                    log.exception("client %s: a message failed", client.address)
                    client.post({"type": "error", "message": "internal error (the server's log has it)"})
        except websockets.ConnectionClosed as e:  # an abrupt disconnect, a message too long: one line
            if client.closing is None:  # (else already said)
                log.info("client %s: connection closed: %s", client.address, e)
        finally:
            client.stop()
            if joined is not None:
                joined[0].clients[joined[1]].discard(client)


def default_archive(db_path: str) -> str:
    """The archive file beside the rooms' file: ``rooms.sqlite3`` -> ``rooms.archive.sqlite3``."""
    p = Path(db_path)
    return str(p.with_name(p.stem + ".archive" + (p.suffix or ".sqlite3")))


def arguments(argv: Optional[list[str]]) -> argparse.Namespace:
    """The command line: where to listen, the files, and every limit (``args.limits``)."""
    p = argparse.ArgumentParser(description="A small multiplayer Canasta server (websockets, SQLite).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (0: any free port; default 8765)")
    p.add_argument("--db", default="canasta-rooms.sqlite3", help="the SQLite file of the live rooms")
    p.add_argument("--archive", help="the SQLite file finished games are moved to (default: beside --db, "
                                     "canasta-rooms.archive.sqlite3)")
    for f in fields(Limits):
        p.add_argument("--" + f.name.replace("_", "-"), type=type(f.default), default=f.default, metavar="N",
                       help=f"{f.metadata['help']} (default {f.default})")
    args = p.parse_args(argv)
    try:
        args.limits = Limits(**{f.name: getattr(args, f.name) for f in fields(Limits)})
    except ValueError as e:
        p.error(str(e))
    return args


async def main(argv: Optional[list[str]] = None) -> None:
    """Resume the live rooms, then serve until interrupted."""
    args = arguments(argv)
    logging.basicConfig(format="%(asctime)s %(name)s %(message)s", level=logging.INFO)
    logging.getLogger("websockets").setLevel(logging.WARNING)
    limits = args.limits
    server = Server(args.db, args.archive, limits)
    server.resume_all()
    server.start()
    async with serve(server.handler, args.host, args.port, max_size=limits.max_message_bytes) as ws_server:
        host, port = list(ws_server.sockets)[0].getsockname()[:2]
        print(f"serving on ws://{host}:{port}", flush=True)
        await asyncio.get_running_loop().create_future()  # forever


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
