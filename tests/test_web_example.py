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


@pytest.fixture()
def server() -> Iterator[tuple[str, int]]:
    """The example server on a free port, its address and seed."""
    seed = 2  # a hand of 25 decisions for the clicking player, who goes out
    proc = subprocess.Popen([sys.executable, str(SERVER), "--port", "0", "--seed", str(seed)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("serving on http://"), (line, proc.stderr.read() if proc.poll() is not None else "")
        yield line.split()[-1], seed
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
        "buttons": [(int(b.get_attribute("value")), b.text)
                    for b in drv.find_elements(By.CSS_SELECTOR, "#actions button")],
        "log": [li.text for li in drv.find_elements(By.CSS_SELECTOR, "#log li")],
    }


def _expected(table: Any) -> dict[str, Any]:
    """What the page must show, from the library's state."""
    st: canasta.GameState = table.state
    seat = table.seat
    hand = st.hands[seat]
    tokens = [str(canasta.Card(k)) for k in range(15)]
    return {
        "hand": [tokens[k] for k in range(14, -1, -1) for _ in range(hand[k])],
        "pile_size": len(st.pile),
        "pile_top": tokens[st.pile[-1]] if st.pile else "empty",
        "stock_size": len(st.stock),
        "totals": list(st.totals),
        "red_threes": list(st.red_threes),
        "melds": [[f"[{m}]" for m in side] for side in st.melds],
        "buttons": ([(i, str(a)) for i, a in zip(st.legal_action_ids(), st.legal_actions())]
                    if st.current_player == seat else []),
        "log": table.log,
    }


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
        assert {k: shown[k] for k in want} == want, f"after {clicks} clicks"
        assert f"Hand {mirror.state.hand_number + 1}." in shown["status"]
        st = mirror.state
        action = me.choose(st.observation(mirror.seat), st.legal_actions())
        action_id = st.action_space.encode(action)
        button = browser.find_element(By.CSS_SELECTOR, f"#actions button[value='{action_id}']")
        assert button.text == str(action)
        button.click()
        mirror.act(action_id)
        _wait_for(browser, mirror.version)
        kinds.add(type(action).__name__)
        clicks += 1
        assert clicks < 400, "the hand does not end"
    # the hand is over: the score table and the events of the last turn
    shown = _shown(browser)
    want = _expected(mirror)
    assert {k: shown[k] for k in want} == want
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
    assert {k: shown[k] for k in want} == want


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
        assert post("act", id=str(illegal))[0] == 400 and table.state is before
        assert post("act", id="seven")[0] == 400 and table.state is before
        assert post("act")[0] == 400 and table.state is before
        status, body = post("act", id=str(ids[0]))
        assert status == 200 and table.state is not before  # (redirected to the page)
        assert table.log[0] == canasta.events(before, ids[0], names=table.names)[0].text
        assert table.log[0] in body  # the page tells what the action did
        assert post("nowhere")[0] == 404
    finally:
        srv.shutdown()
        srv.server_close()
