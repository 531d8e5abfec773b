"""A small web game: play Canasta in a browser against the library's bots.

Run it from a checkout or anywhere the package is installed (no other dependency: the
server is the standard library's ``http.server``)::

    python examples/web/server.py                 # http://127.0.0.1:8000/
    python examples/web/server.py --port 0 --variant online --players 2 --seed 7

and open the address it prints. You play seat 0 (``--seat``); GreedyBots play the others.

It uses only the public API of ``canasta``: :func:`canasta.new_game` deals,
:meth:`canasta.GameState.observation` gives what your seat may see, whose
:meth:`~canasta.Observation.to_dict` (the same data as ``GET /observation.json``) the page is
drawn from, with your legal actions as buttons (in a variant with suited cards, the ways of
laying one group with other suits under one entry: which cards stay in your hand is the choice);
a button posts the action's id, which :meth:`canasta.GameState.apply` plays;
:func:`canasta.events` and :func:`canasta.deal_events` tell what happened at the table, the same
sentences ``canasta play`` prints; :meth:`canasta.GameState.why_illegal` says why a button you
look for is not there.

Routes:

* ``GET /``: the page (the table, your hand, your legal actions, what just happened);
  ``GET /?why=meld+7+7+7``: the same, saying whether that action may be played and why not;
* ``GET /observation.json``: your observation, :meth:`canasta.Observation.to_json`;
* ``POST /act`` with ``id=<action id>`` (and the page's ``version``): play that action, then
  the bots play until it is your turn again or the hand ends; a page older than the game (a
  double click, the back button), or an id that is not a legal action, plays nothing and shows
  the page again, saying so;
* ``POST /next``: deal the next hand (when the hand is over); ``POST /new``: a new game.

One game per server, for one person: an example, not a production server.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional
from urllib.parse import parse_qs

import canasta
from canasta.cli.notation import rule_notes  # the variant's less usual rules, as the terminal's help words them

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
        self.said = tuple("you" if name == "You" else name for name in self.names)
        """The seats' names in the events' sentences ("you" mid-sentence: "You play first" read oddly)."""
        self.bots = {s: canasta.GreedyBot(seed=self.seed * 100 + s) for s in range(n) if s != self.seat}
        self.log: list[str] = [e.text for e in canasta.deal_events(self.state, names=self.said)]
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
        self.log = [e.text for e in canasta.deal_events(self.state, names=self.said)]
        self._play_bots()

    def post(self, route: str, form: dict[str, list[str]]) -> Optional[tuple[int, str]]:
        """Play a posted form (``act``, ``next`` or ``new``); None, or (the HTTP status, what to
        tell the player) when nothing was played: a page older than the game (a second click,
        the back button), an id that is not a legal action, a hand not over."""
        version = form.get("version", [""])[0]
        if route == "act" and version and version != str(self.version):
            return HTTPStatus.CONFLICT, ("That page was out of date (the game had moved on since it was shown): "
                                         "nothing was played. Here is the table now.")
        if route == "act":
            text = form.get("id", [""])[0].strip()
            if not (text.isascii() and text.isdigit() and len(text) < 10):
                return HTTPStatus.BAD_REQUEST, f"No action has the id {text[:20]!r}: choose one of the buttons."
            if self.state.current_player != self.seat:
                return HTTPStatus.CONFLICT, "It is not your turn: nothing was played."
            if int(text) not in self.state.legal_action_ids():
                return HTTPStatus.BAD_REQUEST, (f"Action {text} is not one of your legal actions now: "
                                                "nothing was played. Choose one of the buttons.")
            self.act(int(text))
        elif route == "next":
            if not self.state.is_hand_over or self.state.is_game_over:
                return HTTPStatus.CONFLICT, "The hand is not over: there is no next hand to deal yet."
            self.next_hand()
        else:
            self.new_game()
        return None

    def _play(self, action: Any) -> None:
        before = self.state
        after = before.apply(action)
        self.log += [e.text for e in canasta.events(before, action, after, names=self.said)]
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

    def why(self, text: str) -> str:
        """Whether the action written ``text`` may be played now, and if not, the rule that
        forbids it (:meth:`canasta.GameState.why_illegal`)."""
        if self.state.current_player != self.seat:
            return "It is not your turn."
        try:
            reason = self.state.why_illegal(text)
        except ValueError as err:  # not an action in the notation
            return f"'{text}' is not an action: {err}"
        if reason is not None:  # an action the variant never has: say so before "draw first"
            reason = no_such_action(self.state, text) or reason
        return f"'{text}' is allowed now." if reason is None else f"'{text}' is not allowed: {reason}."


# ------------------------------------------------------------------ the page

NATURAL = re.compile(r"(10|[4-9JQKA])([cdhs])")
"""A natural card with its suit, as the notation writes it (variants with sequences): ``7h``."""
SUIT_NAMES = {16: "clubs", 17: "diamonds", 18: "hearts", 19: "spades"}
"""The sequences' meld ranks (``SEQUENCE_RANK + suit``), by suit."""


SUIT_ORDER = ("s", "h", "c", "d")
"""The suits in the order a hand is grouped (the colours alternate)."""


def hand_groups(hand: list[int], tokens: list[str]) -> list[list[str]]:
    """The hand's cards, each once, highest first and wild cards last: one group. A hand of a
    variant with suited cards holds 59 counts: per kind (all suits together), then per suited
    card; its naturals are listed by their suited cards only, grouped by suit (sequences are of
    one suit), then the threes and wild cards."""
    if len(hand) <= 15:
        return [[tokens[k] for k in range(len(hand) - 1, -1, -1) for _ in range(hand[k])]]
    groups = [[tokens[k] for k in range(len(hand) - 1, 14, -1) if tokens[k][-1] == suit for _ in range(hand[k])]
              for suit in SUIT_ORDER]
    groups.append([tokens[k] for k in (3, 2, 1, 0) for _ in range(hand[k])])
    return [g for g in groups if g]


def hand_cards(hand: list[int], tokens: list[str]) -> list[str]:
    """The hand's cards in the order the page shows them (:func:`hand_groups`)."""
    return [c for g in hand_groups(hand, tokens) for c in g]


def without_suits(text: str) -> str:
    """The notation of a group, a take or an add with its naturals' suits left out (``meld Ah Ad
    Ad`` is ``meld A A A``), or ``text`` itself where the suits are not a choice of which cards
    to keep: a sequence (cards of several ranks), an add to a sequence, a discard."""
    words = text.split()
    if words[0] not in ("meld", "take", "add") or (words[0] == "add" and words[-1] in SUIT_NAMES.values()):
        return text
    ranks = {m.group(1) for w in words[1:] if (m := NATURAL.fullmatch(w))}
    if len(ranks) != 1:
        return text
    return " ".join(m.group(1) if (m := NATURAL.fullmatch(w)) else w for w in words)


def grouped(legal: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """The legal actions, those that lay, take with or add the same ranks with other suits
    together (samba's ``meld Ah Ad Ad``, ``meld As Ad Ad``, ...): one entry per choice."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        groups.setdefault(without_suits(a["action"]), []).append(a)
    return list(groups.items())


def kept(text: str, hand: list[int], tokens: list[str]) -> str:
    """The cards of the ranks an action plays that stay in the hand after it (``As``)."""
    left = list(hand)
    used = [tokens.index(w) for w in text.split()[1:] if NATURAL.fullmatch(w)]
    for k in used:
        left[k] -= 1
    ranks = {tokens[k][:-1] for k in used}
    return " ".join(tokens[k] for k in range(len(left) - 1, 14, -1) if tokens[k][:-1] in ranks
                    for _ in range(left[k])) or "none"


def meld_text(m: dict[str, Any], canasta_size: int, deuces: bool = False) -> str:
    """A meld as the page shows it: a sequence named by its suit (as ``add 8h to hearts`` names
    it), a meld of deuces named so (``deuces``: the variant's ``melds.deuce_melds``), a canasta
    marked."""
    text = m["text"]
    if m["rank"] in SUIT_NAMES:
        text = f"{SUIT_NAMES[m['rank']]}: {text}"
    elif deuces and m["rank"] == 15:  # the meld of wild cards' rank (WILD_RANK), here the deuces' (italian 4.3)
        text = f"deuces: {text}"
    if m["naturals"] + m["jokers"] + m["twos"] >= canasta_size:
        text += " (canasta)"
    return text


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


RANK_VALUES = (("joker", "jokers"), ("two", "twos"), ("ace", "aces"), ("king", "kings"), ("queen", "queens"),
               ("jack", "jacks"), ("ten", "tens"), ("nine", "nines"), ("eight", "eights"), ("seven", "sevens"),
               ("six", "sixes"), ("five", "fives"), ("four", "fours"), ("black_three", "black threes"))
"""The fields of :class:`canasta.Variant`'s ``scoring.card_values``, in rank order, with their plurals."""


def values_text(variant: canasta.Variant) -> str:
    """The cards' values, as the initial meld counts them: ``jokers 50; twos and aces 20; kings
    to eights 10; sevens to fours 5; black threes 5``."""
    values = variant.scoring.card_values
    runs: list[tuple[int, list[str]]] = []
    for field, name in RANK_VALUES:
        value = getattr(values, field)
        if runs and runs[-1][0] == value and field != "black_three":
            runs[-1][1].append(name)
        else:
            runs.append((value, [name]))
    words = [names[0] if len(names) == 1 else " and ".join(names) if len(names) == 2 else f"{names[0]} to {names[-1]}"
             for _, names in runs]
    return "; ".join(f"{w} {v}" for w, (v, _) in zip(words, runs))


FAVICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
           "%3Crect x='2' y='1' width='12' height='14' rx='2' fill='white' stroke='%23a00'/%3E"
           "%3Ctext x='8' y='12' font-size='10' text-anchor='middle' fill='%23a00'%3EC%3C/text%3E%3C/svg%3E")
"""The page's icon, inline (no request for ``/favicon.ico``, which is answered 204 anyway)."""


def side_name(table: "Table", side: int) -> str:
    """A side as the page names it everywhere: its letter, as the events' sentences name it
    ("side A +370"), with its players: ``Side A (You & Partner)``."""
    st = table.state
    letters = sorted(set(st.variant.table(st.players).sides))
    seats = [table.names[s] for s in range(st.players) if st.side_of(s) == side]
    return f"Side {letters[side]} ({' & '.join(seats)})"


def frozen_words(d: dict[str, Any], variant: canasta.Variant) -> str:
    """Whether the pile is frozen for your side: `` (frozen)``, `` (frozen for your side until
    its initial meld)`` (hoyle-1950 rule 37: ``pile.frozen_until_initial_meld``), or ''."""
    if d["frozen"]:
        return " (frozen)"
    if d["pile_top"] is not None and variant.pile.frozen_until_initial_meld and not d["opened"][d["side"]]:
        return " (frozen for your side until its initial meld)"
    return ""


def no_such_action(state: canasta.GameState, text: str) -> Optional[str]:
    """Why an action the variant never has is refused, whatever the phase: ``meld 5h 6h 7h``
    before the draw in hoyle-1950 is refused for having no sequences, not with "draw first"."""
    try:
        action = canasta.parse_action(text)
    except ValueError:
        return None
    if action in state.action_space:
        return None
    if isinstance(action, canasta.Meld) and not state.variant.melds.sequences.allowed:
        kinds = {int(canasta.SuitedCard(c).kind) if c >= 15 else c for c in action.cards if c >= 4}
        if len(kinds) > 1:
            return "this variant has no sequences: a meld is of one rank (melds.sequences)"
    return None


def missing(table: "Table") -> list[str]:
    """Why a button a player looks for is not there: the pile that cannot be taken (when it is
    the player's draw), asked of the rules with :meth:`canasta.GameState.why_illegal`."""
    st = table.state
    if st.current_player != table.seat or st.phase is not canasta.Phase.DRAW or not st.pile:
        return []
    if any(isinstance(a, canasta.Take) for a in st.legal_actions()):
        return []
    top = st.pile[-1]
    rank = str(canasta.SuitedCard(top).kind) if top >= 15 else str(canasta.Card(top))
    return [f"No button takes the pile: {st.why_illegal(f'take {rank} {rank}')}."]


def down_words(variant: canasta.Variant) -> str:
    """When a down hand comes into the hand (``deal.down_hand_up``)."""
    return {"empty_hand": ", taken up when your hand is used up",
            "own_canasta": ", taken up when you complete a canasta (or your hand is used up)",
            "side_canasta": ", taken up when your side completes its first canasta (or your hand is used up)",
            }[variant.deal.down_hand_up]


def page(table: Table, why: Optional[str] = None, message: Optional[str] = None) -> str:
    """The page for ``table``, drawn from the observation's dict form (and the variant's card
    values and canasta size); ``why``: an action the player asked about ("why not?");
    ``message``: why the last form was not played (a stale page, a bad id)."""
    d = table.observation().to_dict()
    tokens = d["cards"]
    names = table.names
    variant = table.state.variant
    e = html.escape
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>Canasta</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}"
           ".card{display:inline-block;border:1px solid #888;border-radius:4px;padding:2px 5px;margin:1px}"
           "button{margin:2px}.side{margin:.3em 0}details{display:inline-block;margin:2px}"
           ".suit{display:inline-block;margin-right:1em}#why-form{margin-top:1.2em}.message{color:#a00}"
           f"summary{{cursor:pointer}}</style><link rel='icon' href='{FAVICON}'></head>"
           f"<body data-version='{table.version}'>",
           f"<h1>Canasta: {e(d['variant'])}</h1>",
           f"<p id='status'>Hand {d['hand_number'] + 1}. "]
    if d["result"] is not None:
        out.append("The hand is over.")
    elif d["current_player"] is not None:
        out.append(f"{e(names[d['current_player']])} to play ({e(d['phase'])}).")
    out.append("</p><h2>Table</h2><div id='table'>")
    size = variant.melds.canasta_size
    for side, melds in enumerate(d["melds"]):
        texts = "".join(f"<span class='meld'>[{e(meld_text(m, size, variant.melds.deuce_melds))}]</span> " for m in melds) or "none"
        threes = d["red_threes"][side]
        # mexicana 4.2 (deal.talon_when = "at_once"): the side's opener draws its talon in the very
        # meld that opens it, so a side has drawn it exactly when it has opened
        talon = ((f"<span class='talon'>talon {'drawn' if d['opened'][side] else 'not drawn yet'}</span>; ")
                 if variant.deal.talon_when == "at_once" and any(variant.deal.talon) else "")
        out.append(f"<div class='side' id='side-{side}'>{e(side_name(table, side))}: "
                   f"<span class='total'>{d['totals'][side]}</span> points, "
                   f"<span class='red-threes'>{threes}</span> red three{'' if threes == 1 else 's'}; "
                   f"{talon}melds: {texts}</div>")
    top = "empty" if d["pile_top"] is None else tokens[d["pile_top"]]
    out.append(f"<p>Pile: <span id='pile-size'>{d['pile_size']}</span> card{'' if d['pile_size'] == 1 else 's'}, "
               f"top <span id='pile-top'>{e(top)}</span>{e(frozen_words(d, variant))}"
               # a packet buried face down under the upcard (upcard.buried): counted, never shown
               + (f" (<span id='pile-buried'>{d['pile_buried']}</span> of them face down under the upcard)"
                  if d.get("pile_buried") else "") + ". "
               f"Stock: <span id='stock-size'>{d['stock_size']}</span> card{'' if d['stock_size'] == 1 else 's'}.</p>")
    downs = d["down_hand_sizes"]
    sizes = ", ".join(f"{e(names[s])} {d['hand_sizes'][s]}" + (f" (+ {downs[s]} face down)" if downs[s] else "")
                      for s in d["active"] if s != d["seat"])
    out.append(f"<p>Cards held: {sizes}.</p>")
    if any(downs) or table.state.variant.table(table.state.players).down_hand_size:
        # a down hand (hand-and-foot's foot, pennies-from-heaven's packet): its size, and when it comes up
        own = d["down_hand_size"]
        out.append(f"<p id='down-hand'>Your down hand: <span id='down-size'>{own}</span> card{'' if own == 1 else 's'} "
                   f"face down{e(down_words(table.state.variant)) if own else ' (taken up)'}.</p>")
    out.append("</div>")
    need = d["initial_need"][d["side"]]
    if d["result"] is None and not d["opened"][d["side"]]:
        out.append(f"<p id='initial-meld'>Your side's initial meld needs <span id='need'>{need}</span> points, "
                   f"counting the cards melded in that turn: {e(values_text(variant))}.</p>")
    notes = rule_notes(table.state)
    if notes:
        out.append("<ul id='variant-rules'>" + "".join(f"<li>{e(n.strip())}</li>" for n in notes[1:]) + "</ul>")
    out.append("<h2>Your hand</h2><div id='hand'>"
               + "".join("<span class='suit'>" + "".join(f"<span class='card'>{e(c)}</span>" for c in group)
                         + "</span>" for group in hand_groups(d["hand"], tokens)) + "</div>")
    if message:
        out.append(f"<p class='message' id='message'>{e(message)}</p>")
    out.append("<h2>Your move</h2><form method='post' action='/act' id='actions'>"
               f"<input type='hidden' name='version' value='{table.version}'>")
    for label, acts in grouped(d["legal_actions"]):
        buttons = "".join(f"<button type='submit' name='id' value='{a['id']}' class='action' "
                          f"title='keeps {e(kept(a['action'], d['hand'], tokens))}'>{e(a['action'])}</button>"
                          if len(acts) > 1 else
                          f"<button type='submit' name='id' value='{a['id']}' class='action'>{e(a['action'])}</button>"
                          for a in acts)
        if len(acts) > 1:  # the same ranks with other suits: which cards stay in the hand is the choice
            out.append(f"<details class='choice'><summary>{e(label)} ({len(acts)} ways)</summary>{buttons}</details>")
        else:
            out.append(buttons)
    out.append("</form>")
    for line in missing(table):
        out.append(f"<p class='missing'>{e(line)}</p>")
    out.append("<form method='get' action='/' id='why-form'>Why can't I <input name='why' id='why' "
               "placeholder='meld 7 7 7'> <button type='submit' id='ask-why'>ask</button></form>")
    if why:
        out.append(f"<p id='why-answer'>{e(table.why(why))}</p>")
    if d["result"] is not None:
        r = d["result"]
        out.append(f"<h2>Score of the hand</h2><p id='reason'>{e(r['reason'])}</p><table id='score'>")
        for sc in r["scores"]:
            items = "; ".join(f"{e(i['name'])} {i['points']}" for i in sc["items"])
            out.append(f"<tr><td>{e(side_name(table, sc['side']))}</td><td class='hand-score'>{sc['total']}</td><td>{items}</td></tr>")
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
        path, _, query = self.path.partition("?")
        with self.table.lock:
            if path == "/":
                why = parse_qs(query).get("why", [""])[0].strip()
                self._send(HTTPStatus.OK, page(self.table, why[:200] or None))
            elif path == "/favicon.ico":  # (the page names an inline icon; an old browser may still ask)
                self.send_response(HTTPStatus.NO_CONTENT)
                self.end_headers()
            elif self.path == "/observation.json":
                self._send(HTTPStatus.OK, self.table.observation().to_json(indent=1), "application/json")
            else:
                self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        form = parse_qs(self.rfile.read(length).decode("ascii", "replace"))
        with self.table.lock:
            if self.path not in ("/act", "/next", "/new"):
                self._send(HTTPStatus.NOT_FOUND, "not found", "text/plain")
                return
            problem = self.table.post(self.path[1:], form)
            if problem is not None:  # the page again, saying why nothing was played
                status, message = problem
                self._send(status, page(self.table, message=message))
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
