"""A small web game: play Canasta in a browser against the library's bots.

Run it from a checkout or anywhere the package is installed (no other dependency: the
server is the standard library's ``http.server``)::

    python examples/web/server.py                 # http://127.0.0.1:8000/
    python examples/web/server.py --port 0 --variant online --players 2 --seed 7

and open the address it prints. You play seat 0 (``--seat``); GreedyBots play the others.

It uses only the public API of ``canasta``: :func:`canasta.new_game` deals,
:meth:`canasta.GameState.observation` gives what your seat may see, whose
:meth:`~canasta.Observation.to_dict` (the same data as ``GET /observation.json``) the page is
drawn from, with your legal actions as buttons; a button posts the action's id, which
:meth:`canasta.GameState.apply` plays; :func:`canasta.events` and :func:`canasta.deal_events` tell what happened at the table.

Routes:

* ``GET /``: the page (the table, your hand, your legal actions, what just happened);
* ``GET /observation.json``: your observation, :meth:`canasta.Observation.to_json`;
* ``POST /act`` with ``id=<action id>``: play that action, then the bots play until it is your
  turn again or the hand ends;
* ``POST /next``: deal the next hand (when the hand is over); ``POST /new``: a new game.

One game per server, for one person: an example, not a production server.
"""

from __future__ import annotations

import argparse
import html
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional
from urllib.parse import parse_qs

import canasta

SEAT_NAMES = {2: ("You", "Opponent"), 4: ("You", "West", "Partner", "East")}


class Table:
    """The game being played: the state, the bots and the last events. The page and the
    tests drive it through :meth:`act`, :meth:`next_hand` and :meth:`new_game`."""

    def __init__(self, variant: str = "hoyle-1950", players: Optional[int] = None, seed: int = 1,
                 seat: int = 0) -> None:
        self.variant = variant
        self.players = players
        self.seed = seed
        self.seat = seat
        self.lock = threading.Lock()
        self.version = 0
        """Counts the changes of the game (the page carries it, so a client can tell a new page)."""
        self.new_game()

    def new_game(self) -> None:
        """Deal a new game and let the bots play up to your first decision."""
        self.version += 1
        self.state = canasta.new_game(self.variant, self.players, seed=self.seed)
        n = self.state.players
        self.names = SEAT_NAMES.get(n, tuple(["You"] + [f"Seat {s}" for s in range(1, n)]))
        if self.seat != 0:
            self.names = tuple(f"Seat {s}" if s != self.seat else "You" for s in range(n))
        self.bots = {s: canasta.GreedyBot(seed=self.seed * 100 + s) for s in range(n) if s != self.seat}
        self.log: list[str] = [e.text for e in canasta.deal_events(self.state, names=self.names)]
        self._play_bots()

    def act(self, action_id: int) -> None:
        """Play your action ``action_id`` (it must be legal), then the bots'."""
        if self.state.current_player != self.seat:
            raise ValueError("it is not your turn")
        self.log = []
        self._play(action_id)
        self.version += 1
        self._play_bots()

    def next_hand(self) -> None:
        """Deal the next hand, once this one is over."""
        self.state = self.state.next_hand()
        self.version += 1
        self.log = [e.text for e in canasta.deal_events(self.state, names=self.names)]
        self._play_bots()

    def _play(self, action: Any) -> None:
        before = self.state
        after = before.apply(action)
        self.log += [e.text for e in canasta.events(before, action, after, names=self.names)]
        self.state = after

    def _play_bots(self) -> None:
        st = self.state
        while not st.is_hand_over and st.current_player != self.seat:
            p = st.current_player
            assert p is not None
            self._play(self.bots[p].choose(st.observation(p), st.legal_actions()))
            st = self.state

    def observation(self) -> canasta.Observation:
        """What you may see now."""
        return self.state.observation(self.seat)


# ------------------------------------------------------------------ the page


def _cards(counts: list[int], tokens: list[str]) -> list[str]:
    order = range(len(counts) - 1, -1, -1)  # aces first, wild cards last
    return [tokens[k] for k in order for _ in range(counts[k])]


def page(table: Table) -> str:
    """The page for ``table``, drawn from the observation's dict form only."""
    d = table.observation().to_dict()
    tokens = d["cards"]
    names = table.names
    e = html.escape
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>Canasta</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}"
           ".card{display:inline-block;border:1px solid #888;border-radius:4px;padding:2px 5px;margin:1px}"
           f"button{{margin:2px}}.side{{margin:.3em 0}}</style></head><body data-version='{table.version}'>",
           f"<h1>Canasta: {e(d['variant'])}</h1>",
           f"<p id='status'>Hand {d['hand_number'] + 1}. "]
    if d["result"] is not None:
        out.append("The hand is over.")
    elif d["current_player"] is not None:
        out.append(f"{e(names[d['current_player']])} to play ({e(d['phase'])}).")
    out.append("</p><h2>Table</h2><div id='table'>")
    for side, melds in enumerate(d["melds"]):
        seats = [names[s] for s, sd in enumerate(d["side_of"]) if sd == side]
        texts = "".join(f"<span class='meld'>[{e(m['text'])}]</span> " for m in melds) or "no melds"
        out.append(f"<div class='side' id='side-{side}'>{e(' & '.join(seats))}: "
                   f"<span class='total'>{d['totals'][side]}</span> points, "
                   f"<span class='red-threes'>{d['red_threes'][side]}</span> red threes; melds: {texts}</div>")
    top = "empty" if d["pile_top"] is None else tokens[d["pile_top"]]
    out.append(f"<p>Pile: <span id='pile-size'>{d['pile_size']}</span> cards, top "
               f"<span id='pile-top'>{e(top)}</span>{' (frozen)' if d['frozen'] else ''}. "
               f"Stock: <span id='stock-size'>{d['stock_size']}</span> cards.</p>")
    sizes = ", ".join(f"{e(names[s])} {d['hand_sizes'][s]}" for s in d["active"] if s != d["seat"])
    out.append(f"<p>Cards held: {sizes}.</p></div>")
    out.append("<h2>Your hand</h2><div id='hand'>"
               + "".join(f"<span class='card'>{e(c)}</span>" for c in _cards(d["hand"], tokens)) + "</div>")
    out.append("<h2>Your move</h2><form method='post' action='/act' id='actions'>")
    for a in d["legal_actions"]:
        out.append(f"<button type='submit' name='id' value='{a['id']}' class='action'>{e(a['action'])}</button>")
    out.append("</form>")
    if d["result"] is not None:
        r = d["result"]
        out.append(f"<h2>Score of the hand</h2><p id='reason'>{e(r['reason'])}</p><table id='score'>")
        for sc in r["scores"]:
            items = "; ".join(f"{e(i['name'])} {i['points']}" for i in sc["items"])
            out.append(f"<tr><td>side {sc['side']}</td><td class='hand-score'>{sc['total']}</td><td>{items}</td></tr>")
        out.append("</table>")
        button = "new" if d["winners"] else "next"
        label = "New game" if d["winners"] else "Next hand"
        out.append(f"<form method='post' action='/{button}'><button type='submit' id='{button}'>{label}</button></form>")
    out.append("<h2>What happened</h2><ul id='log'>" + "".join(f"<li>{e(t)}</li>" for t in table.log) + "</ul>")
    out.append("<p><a href='/observation.json'>observation.json</a></p></body></html>")
    return "".join(out)


class Handler(BaseHTTPRequestHandler):
    """The routes (see the module documentation)."""

    table: Table

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: str, kind: str = "text/html; charset=utf-8") -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        with self.table.lock:
            if self.path == "/":
                self._send(HTTPStatus.OK, page(self.table))
            elif self.path == "/observation.json":
                self._send(HTTPStatus.OK, self.table.observation().to_json(indent=1), "application/json")
            else:
                self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode("ascii", "replace"))
        with self.table.lock:
            try:
                if self.path == "/act":
                    self.table.act(int(form["id"][0]))
                elif self.path == "/next":
                    self.table.next_hand()
                elif self.path == "/new":
                    self.table.new_game()
                else:
                    self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")
                    return
            except (KeyError, ValueError) as err:  # canasta's errors are ValueErrors
                self._send(HTTPStatus.BAD_REQUEST, f"bad request: {err}", "text/plain")
                return
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", "/")
        self.send_header("Content-Length", "0")
        self.end_headers()


def serve(table: Table, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A server for ``table`` bound to ``host``:``port`` (0: a free port), not yet serving."""
    handler = type("TableHandler", (Handler,), {"table": table})
    return ThreadingHTTPServer((host, port), handler)


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--variant", default="hoyle-1950")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0)
    args = parser.parse_args(argv)
    server = serve(Table(args.variant, args.players, args.seed, args.seat), args.host, args.port)
    print(f"serving on http://{args.host}:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    sys.exit(main())
