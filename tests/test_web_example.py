"""The web example (examples/web/server.py) played in a real browser: headless Chromium driven
by Selenium clicks the legal actions' buttons through a whole hand, and at every step the page
must show what the library's state says: the player's hand, the pile, the stock, the melds, the
totals, and exactly the legal actions (notation and ids) as buttons; at the hand's end, the score.

The server runs in its own process; the test keeps a mirror of the game (the example's own
``Table``, same seed, same bots) and plays the same actions into it. Skipped, saying why, only
when no Chromium or chromedriver can be found (``.ci/install-browser`` installs them), and
failed instead when ``CANASTA_REQUIRE_BROWSER=1`` (as in CI).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator, Optional

import pytest

import canasta

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "examples" / "web" / "server.py"



def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("canasta_web_example", SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _browser() -> tuple[Optional[str], Optional[str]]:
    """Chromium and chromedriver, as found on this machine."""
    chromium = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                                 shutil.which("google-chrome")) if p), None)
    driver = shutil.which("chromedriver")
    if driver is None and os.path.exists("/usr/lib/chromium/chromedriver"):
        driver = "/usr/lib/chromium/chromedriver"
    return chromium, driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # CI sets CANASTA_REQUIRE_BROWSER=1 (.ci/run): there a missing browser fails, never skips
    missing = pytest.fail if os.environ.get("CANASTA_REQUIRE_BROWSER") == "1" else pytest.skip
    try:
        from selenium import webdriver
    except ImportError:
        missing("selenium is not installed (the test extra)")
    chromium, driver = _browser()
    if chromium is None or driver is None:
        missing(f"no browser to drive: chromium {chromium or 'not found'}, chromedriver {driver or 'not found'} "
                "(run .ci/install-browser)")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    drv = webdriver.Chrome(service=Service(driver), options=options)
    drv.set_page_load_timeout(30)
    try:
        yield drv
    finally:
        drv.quit()


def _start(*args: str) -> tuple[subprocess.Popen[str], str]:
    """The example server on a free port, with ``args``; the process and its address."""
    proc = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("serving on http://"), (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, line.split()[-1]


@pytest.fixture()
def server() -> Iterator[tuple[str, int]]:
    """The example server on a free port (hoyle-1950), its address and seed."""
    seed = 2  # a hand of 25 decisions for the clicking player, who goes out
    proc, url = _start("--seed", str(seed))
    try:
        yield url, seed
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture()
def samba_server() -> Iterator[tuple[str, int]]:
    """The example server playing samba, its address and seed."""
    seed = 21  # the clicking player goes out after 23 decisions: groups with a choice of suits, a sequence
    proc, url = _start("--variant", "samba", "--seed", str(seed))
    try:
        yield url, seed
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _wait_for(drv: Any, version: int) -> None:
    """Wait until the browser shows the page of the game's change number ``version`` (the
    click's form post and its redirect have completed)."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d: Any) -> bool:
        return bool(d.find_element(By.TAG_NAME, "body").get_attribute("data-version") == str(version))

    WebDriverWait(drv, 30, ignored_exceptions=(StaleElementReferenceException, WebDriverException)).until(ready)


def _shown(drv: Any) -> dict[str, Any]:
    """What the page shows, read from its elements."""
    from selenium.webdriver.common.by import By

    def text(css: str) -> str:
        return str(drv.find_element(By.CSS_SELECTOR, css).text)

    return {
        "status": text("#status"),
        "hand": [e.text for e in drv.find_elements(By.CSS_SELECTOR, "#hand .card")],
        "pile_size": int(text("#pile-size")),
        "pile_top": text("#pile-top"),
        "stock_size": int(text("#stock-size")),
        "totals": [int(e.text) for e in drv.find_elements(By.CSS_SELECTOR, ".side .total")],
        "red_threes": [int(e.text) for e in drv.find_elements(By.CSS_SELECTOR, ".side .red-threes")],
        "melds": [[m.text for m in side.find_elements(By.CSS_SELECTOR, ".meld")]
                  for side in drv.find_elements(By.CSS_SELECTOR, ".side")],
        "buttons": [(int(b.get_attribute("value")), b.get_attribute("textContent"))
                    for b in drv.find_elements(By.CSS_SELECTOR, "#actions button")],
        "missing": [p.text for p in drv.find_elements(By.CSS_SELECTOR, ".missing")],
        "log": [li.text for li in drv.find_elements(By.CSS_SELECTOR, "#log li")],
    }


def _expected(table: Any) -> dict[str, Any]:
    """What the page must show, from the library's state."""
    st: canasta.GameState = table.state
    seat = table.seat
    hand = st.hands[seat]
    size = st.variant.melds.canasta_size
    if len(hand) > 15:  # suited cards (samba): naturals by suit (s h c d), highest first, then 3r 3b 2 JK
        suit_of = {"s": canasta.Suit.SPADES, "h": canasta.Suit.HEARTS, "c": canasta.Suit.CLUBS,
                   "d": canasta.Suit.DIAMONDS}
        codes = [k for suit in "shcd" for k in range(58, 14, -1) if canasta.SuitedCard(k).suit == suit_of[suit]]
        codes += [3, 2, 1, 0]
    else:
        codes = list(range(14, -1, -1))

    def meld(m: canasta.TableMeld) -> str:
        suit = f"{('clubs', 'diamonds', 'hearts', 'spades')[m.rank - 16]}: " if m.rank >= 16 else ""
        return f"[{suit}{m}{' (canasta)' if m.size >= size else ''}]"

    top = st.pile[-1] if st.pile else None
    mine = st.current_player == seat
    takes = any(isinstance(a, canasta.Take) for a in st.legal_actions())
    missing = []
    if mine and st.phase is canasta.Phase.DRAW and top is not None and not takes:
        rank = str(canasta.SuitedCard(top).kind) if top >= 15 else str(canasta.Card(top))
        missing.append(f"No button takes the pile: {st.why_illegal(f'take {rank} {rank}')}.")
    return {
        "hand": [str(canasta.SuitedCard(k)) if k >= 15 else str(canasta.Card(k)) for k in codes for _ in range(hand[k])],
        "pile_size": len(st.pile),
        "pile_top": "empty" if top is None else str(canasta.SuitedCard(top)) if top >= 15 else str(canasta.Card(top)),
        "stock_size": len(st.stock),
        "totals": list(st.totals),
        "red_threes": list(st.red_threes),
        "melds": [[meld(m) for m in side] for side in st.melds],
        "buttons": sorted((i, str(a)) for i, a in zip(st.legal_action_ids(), st.legal_actions())) if mine else [],
        "missing": missing,
        "log": table.log,
    }


def _same(shown: dict[str, Any], want: dict[str, Any]) -> bool:
    """Whether the page shows what the state says (the buttons in any order: groups of one
    rank with other suits are gathered under one entry)."""
    return {k: sorted(shown[k]) if k == "buttons" else shown[k] for k in want} == want


def _click(drv: Any, action_id: int) -> Any:
    """Click the button of ``action_id``, opening the entry it is gathered under if closed."""
    from selenium.webdriver.common.by import By

    button = drv.find_element(By.CSS_SELECTOR, f"#actions button[value='{action_id}']")
    if not button.is_displayed():  # inside a closed <details>: a group with a choice of suits
        button.find_element(By.XPATH, "./ancestor::details/summary").click()
    assert button.is_displayed()
    text = button.text
    button.click()
    return text


@pytest.mark.slow
def test_a_hand_played_by_clicking_shows_the_library_state(browser: Any, server: tuple[str, int]) -> None:
    from selenium.webdriver.common.by import By

    url, seed = server
    mirror = _example().Table(seed=seed)
    me = canasta.GreedyBot(seed=42)
    browser.get(url)
    clicks = 0
    kinds: set[str] = set()
    while not mirror.state.is_hand_over:
        shown = _shown(browser)
        want = _expected(mirror)
        assert _same(shown, want), f"after {clicks} clicks"
        assert f"Hand {mirror.state.hand_number + 1}." in shown["status"]
        st = mirror.state
        action = me.choose(st.observation(mirror.seat), st.legal_actions())
        action_id = st.action_space.encode(action)
        assert _click(browser, action_id) == str(action)
        mirror.act(action_id)
        _wait_for(browser, mirror.version)
        kinds.add(type(action).__name__)
        clicks += 1
        assert clicks < 400, "the hand does not end"
    # the hand is over: the score table and the events of the last turn
    shown = _shown(browser)
    want = _expected(mirror)
    assert _same(shown, want)
    assert shown["buttons"] == []
    result = mirror.state.result
    assert result is not None
    scores = [int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, "#score .hand-score")]
    assert scores == [s.total for s in result.scores]
    assert browser.find_element(By.CSS_SELECTOR, "#reason").text == result.reason
    assert any(t.startswith("Hand 1 is over") for t in shown["log"])
    assert clicks >= 15 and {"Draw", "Discard"} <= kinds, (clicks, kinds)
    # the next hand is dealt by its button, and the page follows the library again
    browser.find_element(By.CSS_SELECTOR, "#next").click()
    mirror.next_hand()
    _wait_for(browser, mirror.version)
    assert "Hand 2." in _shown(browser)["status"]
    want = _expected(mirror)
    shown = _shown(browser)
    assert _same(shown, want)


@pytest.mark.slow
def test_a_samba_hand_played_by_clicking(browser: Any, samba_server: tuple[str, int]) -> None:
    """Samba (Bicycle, "Samba": three packs, sequences of one suit, the samba) played through a
    whole hand in the browser, the clicking player going out: at every step the page shows the
    hand once, each natural with its suit (15 counts of kinds are not shown again); the table's
    groups and sequences (named by suit, as ``add 8h to hearts`` names them); what the side's
    initial meld needs, with the cards' values; why the pile cannot be taken when no button
    takes it; and every legal action as a button, those that lay one rank with other suits
    gathered under one entry (opened to choose which cards to keep)."""
    from selenium.webdriver.common.by import By

    url, seed = samba_server
    mirror = _example().Table(variant="samba", seed=seed)
    me = canasta.GreedyBot(seed=42)
    browser.get(url)
    clicks, chosen_in_group, sequences, explained, needs = 0, 0, 0, 0, set()
    kinds: set[str] = set()
    while not mirror.state.is_hand_over:
        shown = _shown(browser)
        want = _expected(mirror)
        assert _same(shown, want), f"after {clicks} clicks"
        st = mirror.state
        assert len(shown["hand"]) == sum(st.hands[mirror.seat][:15])  # each card once
        side = st.side_of(mirror.seat)
        if not st.opened[side]:
            need = browser.find_element(By.CSS_SELECTOR, "#initial-meld").text
            assert need.startswith(f"Your side's initial meld needs {st.initial_need(side)} points, counting the cards")
            assert "jokers 50; twos and aces 20; kings to eights 10; sevens to fours 5" in need
            needs.add(st.initial_need(side))
        explained += len(shown["missing"])
        sequences += sum(m.startswith(("[clubs: ", "[diamonds: ", "[hearts: ", "[spades: ")) for s in shown["melds"]
                         for m in s)
        action = me.choose(st.observation(mirror.seat), st.legal_actions())
        action_id = st.action_space.encode(action)
        entry = browser.find_element(By.CSS_SELECTOR, f"#actions button[value='{action_id}']")
        chosen_in_group += not entry.is_displayed()
        assert _click(browser, action_id) == str(action)
        mirror.act(action_id)
        _wait_for(browser, mirror.version)
        kinds.add(type(action).__name__)
        clicks += 1
        assert clicks < 400, "the hand does not end"
    shown = _shown(browser)
    assert _same(shown, _expected(mirror)) and shown["buttons"] == []
    result = mirror.state.result
    assert result is not None and result.went_out == mirror.seat
    scores = [int(e.text) for e in browser.find_elements(By.CSS_SELECTOR, "#score .hand-score")]
    assert scores == [s.total for s in result.scores]
    assert any(t.startswith("Hand 1 is over") for t in shown["log"])
    assert clicks >= 15 and {"Draw", "Meld", "Discard"} <= kinds, (clicks, kinds)
    assert chosen_in_group >= 1 and sequences >= 1 and needs == {50}, (chosen_in_group, sequences, needs)


@pytest.mark.slow
def test_the_page_says_why_an_action_is_not_allowed(browser: Any, samba_server: tuple[str, int]) -> None:
    """"Why can't I ...?": the rule that refuses a typed action, in the words of
    :meth:`canasta.GameState.why_illegal` (Bicycle, "Samba", Sequence Meld: "Three or more cards
    of the same suit in sequence")."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def _answer_to(d: Any, text: str) -> str | bool:
        found = d.find_elements(By.CSS_SELECTOR, "#why-answer")
        answer = found[0].text if found else ""
        return answer if answer.startswith(f"'{text}'") else False

    url, seed = samba_server
    mirror = _example().Table(variant="samba", seed=seed)
    browser.get(url)
    for text in ("meld 5h 6h 7s", "discard 7", "take onto hearts", "draw", "dance"):
        field = browser.find_element(By.CSS_SELECTOR, "#why")
        field.clear()
        field.send_keys(text)
        browser.find_element(By.CSS_SELECTOR, "#ask-why").click()
        answer = WebDriverWait(browser, 30, ignored_exceptions=(WebDriverException,)).until(
            lambda d, text=text: _answer_to(d, text)
        )  # the answer's page (the old page's node can vanish mid-check: Chrome's "unknown error")
        assert answer == mirror.why(text)
        reason = None if text == "dance" else mirror.state.why_illegal(text)
        if text == "draw":
            assert reason is None and answer == "'draw' is allowed now."
        elif reason is not None:
            assert answer == f"'{text}' is not allowed: {reason}."
        else:
            assert answer.startswith("'dance' is not an action")


@pytest.mark.slow
def test_the_page_shows_no_hidden_card(browser: Any, server: tuple[str, int]) -> None:
    """The page is drawn from the player's observation: another seat's cards never appear,
    only how many each holds, and the JSON route is that observation."""
    from selenium.webdriver.common.by import By

    url, seed = server
    mirror = _example().Table(seed=seed)
    browser.get(url)
    body = browser.find_element(By.TAG_NAME, "body").text
    for s in range(1, mirror.state.players):
        assert f"{mirror.names[s]} {sum(mirror.state.hands[s])}" in body
    browser.get(url + "observation.json")
    text = browser.find_element(By.TAG_NAME, "body").text
    assert canasta.Observation.from_json(text) == mirror.observation()
    assert canasta.Observation.from_json(text).to_dict() == mirror.observation().to_dict()


def test_the_routes_answer_without_a_browser() -> None:
    """The server's routes over HTTP (no browser): the page, the JSON observation, an action
    posted by id, and bad posts answered 400 with the reason, the game unchanged."""
    import threading
    import urllib.error
    import urllib.parse
    import urllib.request

    example = _example()
    table = example.Table(variant="online", players=2, seed=3)
    srv = example.serve(table, port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{srv.server_address[1]}/"

    def post(path: str, **form: str) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode()
        try:
            with urllib.request.urlopen(base + path, data=data, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    try:
        with urllib.request.urlopen(base, timeout=10) as r:
            assert r.status == 200 and "Your hand" in r.read().decode()
        with urllib.request.urlopen(base + "observation.json", timeout=10) as r:
            assert canasta.Observation.from_json(r.read()) == table.observation()
        before = table.state
        ids = before.legal_action_ids()
        illegal = next(i for i in range(before.action_space.size) if i not in ids)
        version = str(table.version)
        for form, status, said in ((dict(id=str(illegal)), 400, "is not one of your legal actions"),
                                   (dict(id="seven"), 400, "No action has the id &#x27;seven&#x27;"),
                                   ({}, 400, "No action has the id"),
                                   (dict(id=str(ids[0]), version="0"), 409, "That page was out of date")):
            # the page again with the message (issue 30: not a plain-text "bad request: 'id'")
            got, body = post("act", **form)
            assert got == status and table.state is before, form
            message = body.split("<p class='message' id='message'>", 1)[-1].split("</p>", 1)[0]
            assert said in message and "Your hand" in body, form
        assert post("next")[0] == 409 and table.state is before  # the hand is not over
        status, body = post("act", id=str(ids[0]), version=version)
        assert status == 200 and table.state is not before  # (redirected to the page)
        assert table.log[0] == canasta.events(before, ids[0], names=table.said)[0].text
        assert table.log[0] in body  # the page tells what the action did
        assert post("nowhere")[0] == 404
        with urllib.request.urlopen(base + "favicon.ico", timeout=10) as r:
            assert r.status == 204  # (and the page names an inline icon: no 404 in the console)
        assert "<link rel='icon' href='data:image/svg+xml," in body
    finally:
        srv.shutdown()
        srv.server_close()


def test_the_samba_page_without_a_browser() -> None:
    """Samba's page, read as HTML (no browser): the hand once (17 cards after the draw, not the 59
    counts' 34), the ways of laying three aces under one entry (Bicycle, "Samba": a group is of one
    rank; which aces stay in the hand is the choice), what the initial meld needs, and why no
    button takes the pile."""
    import re

    example = _example()
    table = example.Table(variant="samba", seed=0)
    st = table.state
    first = example.page(table)
    assert f"No button takes the pile: {st.why_illegal('take 5 5')}." in first
    assert "Your side's initial meld needs <span id='need'>50</span> points" in first
    table.act(st.action_space.encode(canasta.Draw()))
    page = example.page(table)
    groups = [re.findall(r"<span class='card'>([^<]+)</span>", g)
              for g in re.findall(r"<span class='suit'>((?:<span class='card'>[^<]+</span>)+)</span>", page)]
    # grouped by suit, as sequences are built (issue 30), high cards first, then the wild cards
    assert [" ".join(g) for g in groups] == ["As Qs Qs 10s 8s", "Ah Jh 6h 5h 4h", "Jc 10c 9c", "Ad Ad", "2 JK"]
    entry = re.search(r"<details class='choice'><summary>meld A A A \(3 ways\)</summary>(.*?)</details>", page)
    assert entry is not None
    assert re.findall(r"title='keeps ([^']+)'>([^<]+)<", entry.group(1)) == [
        ("As", "meld Ah Ad Ad"), ("Ah", "meld As Ad Ad"), ("Ad", "meld As Ah Ad")]
    buttons = sorted(int(i) for i in re.findall(r"name='id' value='(\d+)'", page))
    assert buttons == sorted(table.state.legal_action_ids())
    asked = example.page(table, "meld A A A")
    assert "&#x27;meld A A A&#x27; is not allowed: &#x27;meld A A A&#x27; could be" in asked


def test_the_hoyle_page_names_sides_and_the_pile_and_refuses_a_sequence() -> None:
    """hoyle-1950's page, read as HTML: each side named one way everywhere, by its letter as the
    events name it, with its players ("Side A (You & Partner)"); the pile "frozen for your side
    until its initial meld" (Hoyle 1950, rule 37: the pile is frozen against a side that has not
    melded); and "meld 5h 6h 7h" before the draw refused for what it is (Hoyle 1950 has no
    sequences, rule 22: melds are "combinations of three or more cards of the same rank"), not
    with "draw first"."""
    example = _example()
    table = example.Table(variant="hoyle-1950", seed=1)
    first = example.page(table)
    assert "<div class='side' id='side-0'>Side A (You &amp; Partner): " in first
    assert "<div class='side' id='side-1'>Side B (West &amp; East): " in first
    assert "(frozen for your side until its initial meld)." in first
    assert "the upcard is K; you play first." in first  # ("you", not "You", mid-sentence)
    asked = example.page(table, "meld 5h 6h 7h")
    assert "is not allowed: this variant has no sequences" in asked
    asked = example.page(table, "meld 7 7 7")  # an action the variant has: the rule of the moment
    assert "is not allowed: draw or take the pile first" in asked


def test_the_mexicana_page_shows_the_talon_and_the_rules() -> None:
    """Mexicana's page, read as HTML: each side's talon (Rummy-Games, "Mexicana": the player who
    makes his side's initial meld takes thirteen cards; Parlett: "immediately") not drawn yet,
    then drawn by the side that opened, with the thirteen in the log; the variant's rules listed
    (the seven that blocks the pile, the sevens canasta, a red three per canasta)."""
    example = _example()
    table = example.Table(variant="mexicana", seed=3)
    first = example.page(table)
    assert first.count("<span class='talon'>talon not drawn yet</span>") == 2
    assert "<ul id='variant-rules'>" in first and "sevens (pile.blocked_by)" in first
    assert "A canasta of sevens, natural or mixed, scores 1,000" in first
    bot = canasta.GreedyBot(3, table.state.variant)
    while not any(table.state.opened) and table.state.current_player == table.seat:
        table.act(table.state.action_space.encode(bot._choose_state(table.state)))
    st = table.state
    page = example.page(table)
    for side in range(2):
        word = "drawn" if st.opened[side] else "not drawn yet"
        assert f"<div class='side' id='side-{side}'>" in page
        assert page.split(f"id='side-{side}'>")[1].split("</div>")[0].count(f"talon {word}<") == 1
    assert st.opened[0]  # (seed 3: the player at seat 0 opens in his first turn)
    assert "made the side&#x27;s initial meld and drew 13 cards from the stock" in page


def test_the_uruguayan_page_and_a_buried_pile_without_a_browser(tmp_path: Path) -> None:
    """Uruguayan Canasta's page (RG "Uruguay": the pile always frozen, wild melds): the pile is
    described and every legal action has its button; and on house rules burying a packet under
    the upcard (``upcard.buried``, Italian 2.3, Rummy-Games "Italian Canasta"), the page counts
    the face-down cards, never naming them."""
    import re

    example = _example()
    table = example.Table(variant="uruguayan", seed=2)
    page = example.page(table)
    assert "<h1>Canasta: uruguayan</h1>" in page and "face down" not in page
    buttons = sorted(int(i) for i in re.findall(r"name='id' value='(\d+)'", page))
    assert buttons == sorted(table.state.legal_action_ids())
    house = tmp_path / "buried.toml"
    house.write_text('extends = "samba"\nname = "buried"\n[upcard]\nburied = "rank_number"\ncover = []\n')
    table = example.Table(variant=str(house), seed=2)
    st = table.state
    page = example.page(table)
    assert st.pile_buried > 0
    assert (f"<span id='pile-size'>{len(st.pile)}</span> cards" in page
            and f"<span id='pile-buried'>{st.pile_buried}</span> of them face down under the upcard" in page)


def test_the_pennies_page_shows_the_packets() -> None:
    """pennies-from-heaven's page: every player's packet of eleven face down (pennies-from-heaven
    2.2, RG, BC: "a second packet of eleven cards ... face down"), and when the player's own comes
    up (5.1, RG: "when he makes his first canasta"); once taken up, the page says so."""
    example = _example()
    table = example.Table(variant="pennies-from-heaven", seed=2)
    first = example.page(table)
    assert first.count("(+ 11 face down)") == 5
    assert ("Your down hand: <span id='down-size'>11</span> cards face down, taken up when you complete a "
            "canasta (or your hand is used up).") in first
    # the same position with the player's packet already in his hand
    lines = canasta.to_position(table.state).splitlines()
    at = lines.index(next(line for line in lines if line.startswith(f"[[seats]]  # seat {table.seat} ")))
    hand = at + 1
    down = next(k for k in range(at + 1, len(lines)) if lines[k].startswith("down = "))
    lines[hand] = lines[hand].split("#")[0].rstrip()[:-1] + " " + lines[down].split('"')[1] + '"'
    del lines[down]
    table.state = canasta.load_position("\n".join(lines))
    assert "Your down hand: <span id='down-size'>0</span> cards face down (taken up)." in example.page(table)
