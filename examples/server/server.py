"""A small multiplayer Canasta server: rooms, per-seat views, bots in seats, a SQLite save
after every action, and restarts that resume every room exactly.

Run it (the standard library, ``canasta`` and the ``websockets`` package:
``pip install "canasta[examples]"``)::

    python examples/server/server.py                         # ws://127.0.0.1:8765
    python examples/server/server.py --port 0 --db /tmp/rooms.sqlite3

It listens on 127.0.0.1 only unless ``--host`` says otherwise, and prints ``serving on
ws://HOST:PORT`` when it is ready. The protocol is JSON messages over one websocket per
client (see README.md): ``create`` a room, ``join`` a seat with its token, ``act``.

How it uses the library (public API only):

* variant names from clients go through :func:`canasta.bundled_variant` (bundled variants
  only: a client cannot make the server read a file), and every room shares its variant's
  one :class:`canasta.Variant` (and so its compiled rules);
* each room's game is a :class:`canasta.GameRecorder` whose ``log`` appends each line of the
  game's log (:func:`canasta.dump_log`) to SQLite, one row per move, committed before the
  move is announced; at start-up every room is read back with :func:`canasta.load_log` and
  :meth:`canasta.GameRecorder.resume`;
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

An example of the library's use, kept small: one process, no accounts (a seat's token is
its only credential), no spectators.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sqlite3
import sys
from typing import Any, Optional

import websockets
from websockets.asyncio.server import ServerConnection, serve

import canasta

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    seats TEXT NOT NULL          -- JSON: per seat {"kind": "human", "token": ...} or {"kind": "bot", "seed": ...}
);
CREATE TABLE IF NOT EXISTS log (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,          -- 0: the log's header; then one row per move
    line TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
"""


class Store:
    """The SQLite file: each room's seats, and its game log, one row per line."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)  # autocommit: each statement is saved
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def add_room(self, room: str, seats: list[dict[str, Any]]) -> None:
        self.db.execute("INSERT INTO rooms (id, seats) VALUES (?, ?)", (room, json.dumps(seats)))

    def appender(self, room: str, start: int) -> Any:
        """A ``log`` function for a :class:`canasta.GameRecorder`: each line, one row."""
        counter = [start]

        def append(line: str) -> None:
            self.db.execute("INSERT INTO log (room, n, line) VALUES (?, ?, ?)", (room, counter[0], line))
            counter[0] += 1

        return append

    def rooms(self) -> list[tuple[str, list[dict[str, Any]], str, int]]:
        """Every room: its id, seats, log text and number of log rows."""
        out = []
        for room, seats in self.db.execute("SELECT id, seats FROM rooms ORDER BY rowid"):
            lines = [line for (line,) in self.db.execute("SELECT line FROM log WHERE room = ? ORDER BY n", (room,))]
            out.append((room, json.loads(seats), "".join(lines), len(lines)))
        return out


class Room:
    """One game: its recorder, its bots, and the clients connected to its seats."""

    def __init__(self, room_id: str, seats: list[dict[str, Any]], recorder: canasta.GameRecorder, moves: int) -> None:
        self.id = room_id
        self.seats = seats
        self.recorder = recorder
        self.moves = moves
        """Lines of the log after its header: the moves and 'next hand' lines so far."""
        self.bots: dict[int, canasta.GreedyBot] = {
            s: canasta.GreedyBot(spec["seed"], variant=recorder.state.variant, positional=True)
            for s, spec in enumerate(seats) if spec["kind"] == "bot"}
        self.clients: dict[int, set[ServerConnection]] = {s: set() for s in range(len(seats))}
        self.lock = asyncio.Lock()

    @property
    def state(self) -> canasta.GameState:
        return self.recorder.state

    def view(self, seat: int, legend: bool = False) -> dict[str, Any]:
        """The seat's own view: what it may see, nothing more."""
        return self.state.observation(seat).to_dict(history=False, legend=legend)

    async def announce(self, events: tuple[canasta.Event, ...]) -> None:
        """Send every connected seat the events and its view."""
        data = [e.to_dict() for e in events]
        for seat, conns in self.clients.items():
            if not conns:
                continue
            message = json.dumps({"type": "update", "room": self.id, "move": self.moves, "events": data,
                                  "view": self.view(seat)})
            for ws in list(conns):
                try:
                    await ws.send(message)
                except websockets.ConnectionClosed:
                    conns.discard(ws)

    async def play(self, action: Any, seat: Optional[int]) -> None:
        """Play ``action`` for ``seat`` (None: a bot, already the seat to act), save it,
        announce it, deal the next hand when this one is over."""
        before = self.state
        after = self.recorder.apply(action, seat=seat)  # saved (one row) before it is announced
        self.moves += 1
        await self.announce(canasta.events(before, action, after))
        if after.is_hand_over and not after.is_game_over:
            dealt = self.recorder.next_hand()
            self.moves += 1
            await self.announce(canasta.deal_events(dealt))

    async def run_bots(self) -> None:
        """Let the bots play while one of them is to act."""
        while True:
            async with self.lock:
                st = self.state
                seat = st.current_player
                if seat is None or seat not in self.bots:
                    return
                action = self.bots[seat].choose(st.observation(seat), st.legal_actions())
                await self.play(action, None)
            await asyncio.sleep(0)  # let the other rooms and clients in


class Server:
    """The rooms, the SQLite store, and the websocket handler."""

    def __init__(self, db_path: str) -> None:
        self.store = Store(db_path)
        self.rooms: dict[str, Room] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def resume_all(self) -> None:
        """Read every room back from SQLite and go on where it stopped."""
        for room_id, seats, text, rows in self.store.rooms():
            recorder = canasta.GameRecorder.resume(canasta.load_log(text),
                                                   log=self.store.appender(room_id, rows))
            self.rooms[room_id] = Room(room_id, seats, recorder, rows - 1)
            self.wake(self.rooms[room_id])

    def wake(self, room: Room) -> None:
        task = asyncio.get_running_loop().create_task(room.run_bots())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def create(self, message: dict[str, Any]) -> tuple[Room, list[Optional[str]]]:
        variant = canasta.bundled_variant(message.get("variant", "hoyle-1950"))  # never a file
        players = message.get("players") or variant.default_players
        kinds = message.get("seats") or ["human"] + ["bot"] * (players - 1)
        if not isinstance(kinds, list) or len(kinds) != players or any(k not in ("human", "bot") for k in kinds):
            raise ValueError(f"seats: give {players} of 'human' or 'bot'")
        seats: list[dict[str, Any]] = [
            {"kind": "human", "token": secrets.token_urlsafe(16)} if k == "human"
            else {"kind": "bot", "seed": secrets.randbits(62)} for k in kinds]
        state = canasta.new_game(variant, players, seed=None)  # a fresh seed, kept in the log only
        room_id = secrets.token_hex(4)
        self.store.add_room(room_id, seats)
        recorder = canasta.GameRecorder(state, log=self.store.appender(room_id, 0))
        room = self.rooms[room_id] = Room(room_id, seats, recorder, 0)
        self.wake(room)
        return room, [s.get("token") for s in seats]

    async def handler(self, ws: ServerConnection) -> None:
        joined: Optional[tuple[Room, int]] = None
        try:
            async for raw in ws:
                try:
                    message = json.loads(raw)
                    if not isinstance(message, dict):
                        raise ValueError("expected a JSON object")
                    kind = message.get("type")
                    if kind == "create":
                        room, tokens = self.create(message)
                        await ws.send(json.dumps({"type": "created", "room": room.id, "tokens": tokens}))
                    elif kind == "join":
                        room = self.rooms.get(message.get("room"))  # type: ignore[arg-type]
                        seat = message.get("seat")
                        if room is None or not isinstance(seat, int) or not 0 <= seat < len(room.seats):
                            raise ValueError("no such room or seat")
                        if room.seats[seat].get("token") is None or message.get("token") != room.seats[seat]["token"]:
                            raise ValueError("wrong token for this seat")
                        async with room.lock:
                            if joined is not None:
                                joined[0].clients[joined[1]].discard(ws)
                            joined = (room, seat)
                            room.clients[seat].add(ws)
                            await ws.send(json.dumps({
                                "type": "joined", "room": room.id, "seat": seat, "move": room.moves,
                                "log": [e.to_dict() for e in canasta.hand_events(room.state)],
                                "view": room.view(seat, legend=True)}))
                    elif kind == "act":
                        if joined is None:
                            raise ValueError("join a seat first")
                        room, seat = joined
                        async with room.lock:
                            await room.play(message.get("action"), seat)
                        self.wake(room)
                    else:
                        raise ValueError(f"unknown message type {kind!r} (create, join, act)")
                except (ValueError, TypeError) as e:  # canasta's errors are ValueErrors
                    await ws.send(json.dumps({"type": "error", "message": str(e)}))
        finally:
            if joined is not None:
                joined[0].clients[joined[1]].discard(ws)


async def main(argv: Optional[list[str]] = None) -> None:
    p = argparse.ArgumentParser(description="A small multiplayer Canasta server (websockets, SQLite).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (0: any free port; default 8765)")
    p.add_argument("--db", default="canasta-rooms.sqlite3", help="the SQLite file of the rooms")
    args = p.parse_args(argv)
    server = Server(args.db)
    server.resume_all()
    async with serve(server.handler, args.host, args.port) as ws_server:
        host, port = list(ws_server.sockets)[0].getsockname()[:2]
        print(f"serving on ws://{host}:{port}", flush=True)
        await asyncio.get_running_loop().create_future()  # forever


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
