"""The browser game's page driven in headless Chromium (Playwright over Debian's chromium):
a whole game played by clicking, a reaction window answered, a reload mid-game, a second
tab acting on a stale page, and the finished game saved.

They need Debian's `chromium` and the `playwright` package (the dev extra; its own browser
download is not used). `make test` installs chromium when it is missing and sets
NOIR_REQUIRE_BROWSER=1, so there a missing browser fails them; a bare `pytest` elsewhere
skips them, saying why.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from noir_env.game import get_game
from train.replay import replay

from .web_client import request, running

# the pages ask for the bots' moves at once (?delay=0) and do not look for moves made
# elsewhere unless a test says so (?poll=0)
FAST = "?delay=0&poll=0"
STEPS = "?delay=5&poll=0"  # the bots' moves one request each, as a person sees them
DECIDE = "body[data-state=you], body[data-state=over]"


def _missing(why: str) -> None:
    if os.environ.get("NOIR_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{why} (make test installs Debian's chromium; pip install -e '.[dev]')")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (the dev extra)")
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        _missing("headless Chromium is not installed (Debian: apt-get install chromium)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """open_page(url) -> a new tab at url whose script errors and console errors are
    collected in `page.problems` (checked empty at the end of the test)."""
    pages = []

    def opener(url: str):
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.problems = []
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
        page.goto(url)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        assert page.problems == [], page.problems
        page.close()


def _decide(page) -> str:
    """Wait until the page asks the human or shows the end; 'you' or 'over'."""
    page.wait_for_selector(DECIDE, timeout=60_000)
    return page.get_attribute("body", "data-state")


def test_a_whole_game_is_played_by_clicking_and_saved(open_page, tmp_path):
    """The human clicks the first control each time until the end; the end shows the
    result; the saved history replays to the same scores."""
    with running(players=3, opponents=["heuristic"], seed=1) as server:
        page = open_page(server.url + FAST)
        clicks = 0
        while _decide(page) == "you":
            assert page.locator("#board svg").count() == 1
            page.locator("button.move").first.click()
            clicks += 1
        assert clicks > 10
        result = page.inner_text("#result")
        assert result.startswith(("You won!", "You lost.", "A draw")) and "Scores:" in result
        log = page.inner_text("#feed")
        assert "Turn 2: " in log and "Game over: " in log
        with page.expect_download() as saving:
            page.click("#save")
        history = json.loads(saving.value.path().read_text())
        _, end = request(server, "GET", f"/api/games/{page.get_attribute('body', 'data-game')}")
        assert len(history["actions"]) == end["version"]
        scores = get_game("noir").scores(replay(history).decisions[-1].state)[0][:3].tolist()
        assert scores == list(end["result"]["scores"].values())


def test_a_reaction_window_is_answered(open_page):
    """Out of turn, in player_1's end-of-turn window, the page asks the human to react or
    pass; the human plays a Drive-by, which the log then shows."""
    with running(players=3, opponents=["heuristic"], seed=1) as server:
        page = open_page(server.url + FAST)
        for _ in range(10):
            assert _decide(page) == "you"
            if page.locator("#decision.reaction").count():
                break
            page.locator("button.move").first.click()
        prompt = page.inner_text("#prompt")
        assert prompt.startswith("Reaction window (end of turn of player_1, player_1's turn)"), (
            prompt
        )
        assert page.inner_text("button.move.pass").startswith("Pass: ")
        page.click("button.move[data-name='play:driveby']")
        page.wait_for_function("document.getElementById('feed').innerText"
                               ".includes('player_0 orders a Drive-by')")  # fmt: skip

        # a new game from the form: District Noir against its heuristic
        first = page.get_attribute("body", "data-game")
        page.click("#new-game summary")
        page.select_option("#f-game", "district_noir")
        assert page.input_value("#f-opponents") == "district-heuristic"
        page.click("#deal")
        page.wait_for_function(f"document.body.dataset.game !== '{first}'")
        assert _decide(page) == "you" and page.inner_text("#title") == "District Noir, 2 players"
        assert page.url.endswith("#game=" + page.get_attribute("body", "data-game"))


def test_reload_keeps_the_game_and_a_stale_tab_is_refused(open_page):
    with running(players=3, opponents=["random"], seed=5) as server:
        page = open_page(server.url + STEPS)
        for _ in range(4):
            _decide(page)
            page.locator("button.move").first.click()
        assert _decide(page) == "you"
        version = page.get_attribute("body", "data-version")
        board, log = page.inner_html("#board"), page.inner_text("#feed")
        page.reload()
        assert _decide(page) == "you"
        assert page.get_attribute("body", "data-version") == version
        assert (page.inner_html("#board"), page.inner_text("#feed")) == (board, log)

        # a second tab opened at the bare address shows the same game
        other = open_page(server.url + FAST)
        assert _decide(other) == "you"
        assert other.get_attribute("body", "data-game") == page.get_attribute("body", "data-game")
        assert other.get_attribute("body", "data-version") == version
        page.locator("button.move").first.click()  # the first tab moves on
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        _decide(page)
        now = page.get_attribute("body", "data-version")
        other.locator("button.move").first.click()  # the second acts on its stale board
        other.wait_for_selector("#error:not([hidden])")
        assert "stale page" in other.inner_text("#error")
        assert [m for m in other.problems if "409 (Conflict)" in m] == other.problems != []
        other.problems.clear()  # the refusal, as the browser logs it
        other.wait_for_function(f"document.body.dataset.version === '{now}'")  # caught up
        _, game = request(server, "GET", "/api/games/latest")
        assert str(game["version"]) == now  # the stale click changed nothing
