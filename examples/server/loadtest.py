"""How fast a person's moves are answered while other rooms of bots play: starts the server
(``server.py`` beside this file, or ``--server``) on a free port of 127.0.0.1 with a fresh
SQLite file, has one client create ``--bot-rooms`` rooms with a bot in every seat, then plays
a two-person room of hoyle-1950 (both seats from this process, on two connections) and a room
of one person and three bots, and prints the medians and 99th percentiles of:

* ``move``: from sending an ``act`` to receiving that move's ``update``;
* ``round``: in the room with bots, from sending an ``act`` until it is the person's turn
  again (the three bots' moves in between, when the act ends the turn).

Keep the measurement short beside the rooms of bots (the defaults take about 20 s with the
earlier server): a game of hoyle-1950 for four greedy bots is about 550 moves, and an
unpaced server finishes 300 of them in about a hundred seconds.

::

    python examples/server/loadtest.py --bot-rooms 300 -- --max-bot-rooms 300 --max-bot-rooms-per-client 300 \\
        --max-rooms-per-client 310

(the options after ``--`` go to the server: its limits must let the one client make the rooms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

import websockets

HERE = Path(__file__).resolve().parent


async def create(url: str, message: dict[str, Any]) -> dict[str, Any]:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps(message))
        reply: dict[str, Any] = json.loads(await ws.recv())
        assert reply["type"] == "created", reply
        return reply


async def bot_rooms(url: str, count: int) -> None:
    async with websockets.connect(url) as ws:
        for _ in range(count):
            await ws.send(json.dumps({"type": "create", "seats": ["bot"] * 4}))
            reply = json.loads(await ws.recv())
            assert reply["type"] == "created", reply


class Seat:
    """One person's connection to a seat: the latest view, and a queue of its updates."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws, self.seat = ws, seat
        self.view: dict[str, Any] = {}
        self.updates: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader: Optional[asyncio.Task[None]] = None

    @classmethod
    async def join(cls, url: str, room: str, seat: int, token: str) -> "Seat":
        ws = await websockets.connect(url, max_size=None)
        await ws.send(json.dumps({"type": "join", "room": room, "seat": seat, "token": token}))
        joined = json.loads(await ws.recv())
        assert joined["type"] == "joined", joined
        self = cls(ws, seat)
        self.view = joined["view"]
        self.reader = asyncio.get_running_loop().create_task(self.read())
        return self

    async def read(self) -> None:
        async for raw in self.ws:
            m = json.loads(raw)
            if m["type"] == "update":
                self.view = m["view"]
            await self.updates.put(m)

    async def act(self, rng: random.Random) -> float:
        """Play a random legal action; the seconds until its update came back."""
        while not self.updates.empty():
            self.updates.get_nowait()
        start = time.perf_counter()
        await self.ws.send(json.dumps({"type": "act", "action": rng.choice(self.view["legal_actions"])["id"]}))
        m = await asyncio.wait_for(self.updates.get(), timeout=60)
        assert m["type"] == "update", m
        return time.perf_counter() - start


async def two_people(url: str, moves: int, rng: random.Random) -> list[float]:
    room = await create(url, {"type": "create", "variant": "hoyle-1950", "players": 2, "seats": ["human", "human"]})
    seats = [await Seat.join(url, room["room"], s, room["tokens"][s]) for s in (0, 1)]
    out: list[float] = []
    while len(out) < moves:
        await asyncio.sleep(0.01)  # a person's pace, roughly
        view = seats[0].view
        if view["phase"] == "game_over":
            break
        seat = view["current_player"]
        if seat is None or seats[seat].view["current_player"] != seat:
            continue  # (its own update not read yet)
        out.append(await seats[seat].act(rng))
    for s in seats:
        await s.ws.close()
    return out


async def with_bots(url: str, rounds: int, rng: random.Random) -> list[float]:
    room = await create(url, {"type": "create", "variant": "hoyle-1950", "players": 4,
                              "seats": ["human", "bot", "bot", "bot"]})
    me = await Seat.join(url, room["room"], 0, room["tokens"][0])
    out: list[float] = []
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while len(out) < rounds and loop.time() < end:
        while me.view["current_player"] != 0 and me.view["phase"] != "game_over" and loop.time() < end:
            await asyncio.wait_for(me.updates.get(), timeout=60)
        if me.view["phase"] == "game_over":
            break
        start = time.perf_counter()
        await me.act(rng)
        while me.view["current_player"] != 0 and me.view["phase"] != "game_over":
            await asyncio.wait_for(me.updates.get(), timeout=60)
        out.append(time.perf_counter() - start)
    await me.ws.close()
    return out


def summary(name: str, xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return f"{name}: n={len(xs)} median {statistics.median(xs) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, " \
           f"max {xs[-1] * 1000:.1f} ms"


async def measure(url: str, args: argparse.Namespace) -> None:
    await bot_rooms(url, args.bot_rooms)
    await asyncio.sleep(args.warmup)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    print(summary("move", await two_people(url, args.moves, rng)), flush=True)
    print(summary("round", await with_bots(url, args.rounds, rng)), flush=True)
    print(f"measured for {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", default=str(HERE / "server.py"), help="the server's script")
    p.add_argument("--bot-rooms", type=int, default=300)
    p.add_argument("--moves", type=int, default=100, help="moves of the two-person room measured")
    p.add_argument("--rounds", type=int, default=20, help="rounds of the room with bots measured")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds the bots play before measuring")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("server_args", nargs="*", help="options for the server (after --)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, args.server, "--port", "0", "--db", str(Path(tmp) / "rooms.sqlite3"),
                                 *args.server_args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env={**os.environ})
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert line.startswith("serving on ws://127.0.0.1:"), line
            asyncio.run(measure(line.split()[-1], args))
        finally:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    main()
