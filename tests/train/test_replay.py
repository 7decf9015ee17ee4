"""The replay viewer (python -m train.replay GAME.json --html): pages opened in headless
Chromium load without a console error, stepping changes the board, keys, buttons and play
work, a screenshot is taken, and a seat's page holds no card of another seat that the seat
could not see; the tournament's sample games replay as they were played.

The browser tests need Debian's `chromium`. `make test` installs it when it is missing and
sets NOIR_REQUIRE_BROWSER=1, so in CI a missing browser fails them; a bare `pytest`
elsewhere skips them, saying why.
`--html PATH` that cannot write PATH (a missing folder, a folder) is one line and exit 2
naming PATH and the reason, never the temporary file the page is written to first."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from noir_env import noir_v2
from noir_env._atomic import TEMP_SUFFIX
from train.replay import main as replay_main
from train.replay import replay
from train.replay_html import read_page_data, viewpoints, write_html
from train.tournament import run_tournament

FACE = re.compile(r'class=\\?"card face\\?" data-card=\\?"(\w+)\\?" data-seat=\\?"(\d)\\?"'
                  r'( data-known)?')  # fmt: skip


BOARD = re.compile(r'<div id="board"([^>]*)>(.*?)</div><div id="log"', re.S)


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path:
        return path
    if os.environ.get("NOIR_REQUIRE_BROWSER") == "1":
        pytest.fail("headless Chromium is required (make test installs Debian's chromium)")
    pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")


def _browse(page: Path, tmp: Path, fragment: str, *flags: str) -> tuple[str, str]:
    """(the page's DOM once its script ran, Chromium's log) at page#fragment; flags such as
    --screenshot replace the DOM dump."""
    flags = flags or ("--dump-dom",)
    cmd = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={tmp / 'profile'}", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", *flags, f"{page.as_uri()}#{fragment}"]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout, run.stderr


def _board(dom: str) -> tuple[str, str]:
    """(the attributes, the content) of the page's #board."""
    m = BOARD.search(dom)
    assert m, "no #board in the page"
    return m.group(1), m.group(2)


@pytest.fixture(scope="module")
def noir_game(tmp_path_factory) -> tuple[Path, dict]:
    """A random 4-player game's history, saved as noir_v2 writes it."""
    env = noir_v2.env(num_players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    path = tmp_path_factory.mktemp("game") / "game.json"
    env.unwrapped.save_history(path)
    return path, env.unwrapped.history


@pytest.fixture(scope="module")
def pages(noir_game) -> dict[str, Path]:
    """The viewer of the game with every viewpoint, and one for player_1 alone."""
    path, _ = noir_game
    out = {"all": path.with_name("all.html"), "seat": path.with_name("seat1.html")}
    assert replay_main([str(path), "--html", str(out["all"])]) == 0
    assert replay_main([str(path), "--html", str(out["seat"]), "--view", "player_1"]) == 0
    return out


def test_page_loads_without_errors_and_stepping_changes_the_board(pages, tmp_path):
    boards = []
    for step in (40, 41):
        dom, log = _browse(pages["all"], tmp_path, f"step={step}&view=spectator")
        assert "CONSOLE" not in log, log  # Chromium logs every console message and error
        assert '<div id="errors"></div>' in dom
        attrs, svg = _board(dom)
        assert f'data-step="{step}"' in attrs and 'data-view="spectator"' in attrs
        ET.fromstring(svg)  # the board is well-formed SVG
        boards.append(svg)
    assert boards[0] != boards[1]


def test_screenshot(pages, tmp_path):
    from PIL import Image

    shot = tmp_path / "shot.png"
    _browse(pages["all"], tmp_path, "step=200&view=player_2", f"--screenshot={shot}",
            "--window-size=1600,900")  # fmt: skip
    img = np.asarray(Image.open(shot).convert("RGB"))
    assert img.shape == (900, 1600, 3) and img.std() > 20  # a picture, not a blank page


KEYS = """<script>
window.addEventListener('load', function () {
  var board = document.getElementById('board'), out = [];
  function note() {
    out.push(board.getAttribute('data-step') + ':' + board.getAttribute('data-view'));
  }
  function key(k, shift) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: k, shiftKey: !!shift}));
    note();
  }
  function done() {
    var r = document.createElement('div'); r.id = 'test-result'; r.textContent = out.join(' ');
    document.body.appendChild(r);
  }
  (function wait() {
    if (!board.hasAttribute('data-step')) { setTimeout(wait, 10); return; }
    note(); key('ArrowRight'); key('ArrowRight', true); key('ArrowLeft'); key('v');
    key('End'); key('Home'); document.getElementById('next').click(); note();
    key(' ');  // play: the timer steps on by itself
    setTimeout(function () { key(' '); done(); }, 2500);
  })();
});
</script></body>"""


def test_keys_buttons_and_play(pages, tmp_path):
    """The page driven by a script added to a copy of it: keys, a button, play and pause."""
    page = tmp_path / "keys.html"
    page.write_text(pages["all"].read_text().replace("</body>", KEYS))
    dom, log = _browse(page, tmp_path, "step=5&view=spectator")
    assert "CONSOLE" not in log, log
    result = re.search(r'<div id="test-result">([^<]*)</div>', dom).group(1).split()
    last = len(read_page_data(pages["all"].read_text())["decisions"]) - 1
    want = ["5:spectator", "6:spectator", "16:spectator", "15:spectator", "15:player_0",
            f"{last}:player_0", "0:player_0", "1:player_0"]  # fmt: skip
    assert result[:8] == want
    assert result[8] == "1:player_0"  # play pressed: the timer steps on from there
    assert int(result[9].split(":")[0]) >= 4  # paused after 2.5 s at 2.5 decisions a second


def _faces_of_others(text: str, seat: int) -> list[tuple[str, str, bool]]:
    return [(c, q, bool(k)) for c, q, k in FACE.findall(text) if int(q) != seat]


def test_a_seat_page_holds_no_card_the_seat_could_not_see(pages, noir_game, tmp_path):
    """player_1's page shows other seats' cards only where they are publicly known (R7.3):
    in every part of its embedded data, and in its DOM at several decisions; the
    all-viewpoints page holds the spectator's boards, whose data does show them (so the
    check can fail), but shows player_1's board in player_1's view."""
    data = read_page_data(pages["seat"].read_text())
    assert data["views"] == ["player_1"]
    n_decisions = len(noir_game[1]["actions"]) + 1
    assert len(data["boards"]["player_1"]) == n_decisions
    for part in data["parts"]:
        assert all(k for _, _, k in _faces_of_others(part, 1)), part
    for step in (0, 150, n_decisions - 1):
        dom, _ = _browse(pages["seat"], tmp_path, f"step={step}&view=player_1")
        assert f'data-step="{step}"' in _board(dom)[0]
        assert all(k for _, _, k in _faces_of_others(dom, 1))
        dom, _ = _browse(pages["all"], tmp_path, f"step={step}&view=player_1")
        assert all(k for _, _, k in _faces_of_others(_board(dom)[1], 1))  # shown: player_1's
    spectator = read_page_data(pages["all"].read_text())["parts"]
    assert not all(k for part in spectator for _, _, k in _faces_of_others(part, 1))


def test_district_noir_page(tmp_path):
    result = run_tournament(["district-heuristic", "random"], game="district_noir", games=2,
                            save_games=1, ratings=False)  # fmt: skip
    game = replay(result.records.histories[0])
    page = tmp_path / "dn.html"
    write_html(game, page, ["spectator", "player_0"], "dn")
    dom, log = _browse(page, tmp_path, "step=5&view=player_0")
    assert "CONSOLE" not in log and '<div id="errors"></div>' in dom
    attrs, svg = _board(dom)
    assert 'data-view="player_0"' in attrs and "District Noir" in svg
    assert not _faces_of_others(svg, 0)  # no District Noir card is known in a hand


def test_tournament_sample_games_replay_as_played(tmp_path):
    from train.tournament import save

    result = run_tournament(["heuristic", "random", "random", "random"], games=8,
                            save_games=3, seed=2, ratings=False)  # fmt: skip
    assert sorted(result.records.histories) == [0, 1, 2]
    for g, history in result.records.histories.items():
        end = noir_v2.play_back(history)
        np.testing.assert_array_equal(end.state.winners[0].astype(bool),
                                      result.records.winners[g])  # fmt: skip
        assert int(end.state.steps[0]) == int(result.records.length[g])
    paths = save(result, tmp_path, plot=False)
    saved = json.loads(paths["game_1"].read_text())
    lineup = result.schedule.lineups[1]
    assert saved["players"] == [result.labels[k] for k in lineup[lineup >= 0]]
    game = replay(saved)
    assert game.names[0] == f"player_0 ({saved['players'][0]})"
    assert len(game.decisions) == len(saved["actions"]) + 1


def test_text_replay_and_bad_arguments(noir_game, capsys, tmp_path):
    path, history = noir_game
    assert replay_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "=== decision 1: player_" in out and "game over" in out
    with pytest.raises(SystemExit):
        replay_main([str(path), "--html", str(tmp_path / "x.html"), "--view", "player_9"])
    assert "unknown viewpoint 'player_9'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**history, "actions": [999]}))
    with pytest.raises(SystemExit):
        replay_main([str(bad)])
    assert "illegal action" in capsys.readouterr().err


def test_a_fast_mode_history_has_no_seat_views(noir_game, tmp_path):
    """A history of the core's fast mode holds only real choices: who was asked tells who
    holds a card, so its page has the spectator's view alone and a seat's view is refused."""
    from agents import RandomAgent
    from noir_env.vector.engine import SingleSeatGames

    games = SingleSeatGames(1, num_players=3, opponents="random", seed=0, record=True)
    agent = RandomAgent(seed=1)
    obs, mask = games.reset(seed=1)
    out = games.step(agent.act(obs, mask))
    while out.ended is None:
        out = games.step(agent.act(out.obs, out.mask))
    history = out.ended.history[0]
    assert history["ask_all"] is False
    game = replay(history)
    assert viewpoints(game, ["all"]) == [("spectator", None)]
    with pytest.raises(ValueError, match="ask_all false"):
        write_html(game, tmp_path / "p.html", ["player_0"])


EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "replay_example.json"


@pytest.mark.parametrize(
    "where, why",
    [
        (lambda tmp: tmp / "missing" / "game.html", "No such file or directory"),
        (lambda tmp: tmp, "Is a directory"),
    ],
    ids=["missing folder", "a folder"],
)
def test_an_html_path_that_cannot_be_written_is_named(tmp_path, capsys, where, why):
    target = where(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        replay_main([str(EXAMPLE), "--html", str(target)])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert err.strip() == f"python -m train.replay: error: could not write {target}: {why}"
    assert TEMP_SUFFIX not in err and not list(tmp_path.rglob(f"*{TEMP_SUFFIX}"))
