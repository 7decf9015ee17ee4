"""The browser game's server and payload (`python -m train.play --web`, train/web) without a
browser: what the page receives holds nothing the human's seat may not know, bad requests
are refused with a clear error and change nothing, a finished game saves a history the
replay viewer opens, and the command prints the page's address."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from noir_env.game import get_game
from train.play import main as play_main
from train.replay import replay
from train.replay_html import write_html
from train.web.payload import seat_view
from train.web.session import GameSession, Settings

from .web_client import play_first_moves, request, running

ROOT = Path(__file__).resolve().parents[3]
FACE = re.compile(r'class="card face" data-card="(\w+)" data-seat="(\d)"( data-known)?')
SEED = 918_273_645_546_372  # digits that would show if the seed were sent


def _unknown_faces_of_others(svg: str, seat: int) -> list[str]:
    """Cards drawn face up in another seat's hand that are not publicly known there."""
    return [card for card, q, known in FACE.findall(svg) if int(q) != seat and not known]


@pytest.mark.parametrize(("game", "players", "opponents"),
                         [("noir", 4, ["random"]), ("district_noir", 2, ["random"])])  # fmt: skip
def test_the_payload_is_the_seats_view_and_nothing_more(game, players, opponents):
    """At decisions along a game: re-dealing everything hidden from the human's seat leaves
    its observation and the payload's view unchanged (so the payload reads nothing hidden);
    the re-dealt games do differ (so the check can fail); the board shows no other hand's
    unknown card (the spectator's does); neither the seed nor the actions are sent."""
    seat = 1
    session = GameSession("t", Settings(game, players, seat=seat, opponents=opponents,
                                        seed=SEED))  # fmt: skip
    g, env = get_game(game), session.env
    checked = differed = spectator_faces = 0
    for k in range(160):
        p = session.payload()
        if p["status"] == "over":
            break
        state = env.state
        view = seat_view(g, state, seat, session.names, session.rules_name)
        shown = ("board", "to_act", "moves") if p["status"] == "you" else ("board", "to_act")
        assert all(p[key] == view[key] for key in shown)  # the payload's board is this view
        if k % 4 == 0:
            other = g.sample_hidden(state, seat, seeds=[k])
            np.testing.assert_array_equal(g.observe(other, seat), g.observe(state, seat))
            assert seat_view(g, other, seat, session.names, session.rules_name) == view
            differed += bool(np.any(other.view(np.uint8) != state.view(np.uint8)))
            text = json.dumps(p)
            assert not _unknown_faces_of_others(p["board"], seat)
            spectator = env.picture(None).svg
            spectator_faces += bool(_unknown_faces_of_others(spectator, seat))
            assert str(SEED) not in text and '"seed"' not in text and '"actions"' not in text
            checked += 1
        if p["status"] == "you":
            session.move(p["version"], p["moves"][-1]["moves"][-1]["id"])
        else:
            session.advance(p["version"])
    assert checked >= 8 and differed == checked and spectator_faces > 0


def test_bad_requests_are_refused_and_change_nothing():
    with running(players=3, opponents=["heuristic"], seed=1) as server:
        _, p = request(server, "GET", "/api/games/latest")
        gid = p["id"]
        p = play_first_moves(server, gid, until=1)  # the first decision taken: a bot is next
        if p["status"] == "others":
            status, answer = request(server, "POST", f"/api/games/{gid}/move",
                                     {"version": p["version"], "action": 0})  # fmt: skip
            assert status == 409 and "not your decision" in answer["error"]
            _, p = request(server, "POST", f"/api/games/{gid}/advance",
                           {"version": p["version"], "until_you": True})  # fmt: skip
        assert p["status"] == "you"
        before = p
        legal = {m["id"] for group in p["moves"] for m in group["moves"]}
        illegal = next(a for a in range(get_game("noir").num_actions) if a not in legal)
        move = f"/api/games/{gid}/move"
        refusals = [
            (("POST", move, {"version": p["version"], "action": illegal}), 422, "illegal move"),
            (("POST", move, {"version": p["version"], "action": 10_000}), 422, "illegal move"),
            (("POST", move, {"version": p["version"] - 1, "action": 0}), 409, "stale page"),
            (("POST", move, {"version": str(p["version"]), "action": 0}), 400, "'version'"),
            (("POST", move, {"version": p["version"], "action": "0"}), 400, "'action'"),
            (("POST", move, {"version": p["version"], "action": True}), 400, "'action'"),
            (("POST", move, {"version": p["version"]}), 400, "'action'"),
            (("POST", move, [p["version"], 0]), 400, "JSON object"),
            (("POST", f"/api/games/{gid}/advance", {"version": p["version"]}), 409,
             "nothing to advance"),
            (("GET", f"/api/games/{gid}/history"), 409, "once it is over"),
            (("GET", "/api/games/nosuchgame"), 404, "no game 'nosuchgame'"),
            (("POST", "/api/games/nosuchgame/move", {"version": 0, "action": 0}), 404, "no game"),
            (("GET", "/api/nothing"), 404, "no such page"),
            (("POST", "/api/games", {"players": 9}), 400, "3..6"),
            (("POST", "/api/games", {"opponents": ["nobody"]}), 400, "unknown agent"),
            (("POST", "/api/games", {"game": "race"}), 400, "game must be one of"),
            (("POST", "/api/games", {"seat": 7}), 400, "seat must be in"),
            (("POST", "/api/games", {"colour": "red"}), 400, "unknown setting"),
        ]  # fmt: skip
        for (method, path, *body), status, words in refusals:
            got, answer = request(server, method, path, *body)
            assert (got, words in answer["error"]) == (status, True), (path, body, answer)
        raw = [
            (b"{not json", {}, 400, "not JSON"),
            (b'{"version": 1}', {"Content-Type": "text/plain"}, 415, "Content-Type"),
            (b"{}", {"Host": "evil.example:80"}, 403, "own address"),
            (b"x" * 70_000, {}, 413, "at most"),
        ]
        for data, headers, status, words in raw:
            got, answer = request(server, "POST", move, raw=data, headers=headers)
            assert (got, words in answer["error"]) == (status, True), answer
        _, after = request(server, "GET", f"/api/games/{gid}")
        assert after == before  # nothing changed
        # and the legal move is taken
        status, p = request(server, "POST", move, {"version": p["version"], "action": min(legal)})
        assert status == 200 and p["version"] > before["version"]


def test_a_finished_game_saves_a_history_the_replay_viewer_opens(tmp_path):
    with running(players=3, opponents=["heuristic"], seed=7) as server:
        _, p = request(server, "GET", "/api/games/latest")
        end = play_first_moves(server, p["id"])
        assert end["result"]["text"].startswith(("You won!", "You lost.", "A draw"))
        status, history = request(server, "GET", f"/api/games/{p['id']}/history")
        assert status == 200 and history["players"] == ["you", "heuristic", "heuristic"]
        assert len(history["actions"]) == end["version"]
        game = replay(history)
        page = tmp_path / "game.html"
        write_html(game, page, ["all"], "saved")
        assert page.stat().st_size > 1000
        last = game.decisions[-1].state
        assert get_game("noir").scores(last)[0][:3].tolist() == list(
            end["result"]["scores"].values()
        )
        # a new game from the page's form: another id, the first one kept
        settings = {"game": "district_noir", "opponents": ["district-heuristic"]}
        status, new = request(server, "POST", "/api/games", settings)
        assert status == 201 and new["id"] != p["id"] and new["game"] == "district_noir"
        assert request(server, "GET", f"/api/games/{p['id']}")[1]["status"] == "over"


def test_the_command_prints_the_address_and_serves_the_page(capsys):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "train.play", "--web", "--players", "3", "--opponents", "random"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        with urllib.request.urlopen(url.group(0), timeout=30) as page:
            assert b'<script src="/page.js">' in page.read()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    # bad settings: one line, exit 2, before anything listens
    with pytest.raises(SystemExit) as exit_:
        play_main(["--web", "--players", "3", "--opponents", "nobody"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown agent" in err


class _Failing:
    """A bot that fails at its first decision."""

    def act(self, obs, mask):
        raise RuntimeError("the bot's network is missing")


def test_a_failing_bot_is_reported_and_changes_nothing():
    with running(players=3, opponents=["random"], seed=2) as server:
        _, p = request(server, "GET", "/api/games/latest")
        p = play_first_moves(server, p["id"], until=1)
        session = server.games.get(p["id"])
        for seat in session.bots:
            session.bots[seat] = ("failing", _Failing())
        while p["status"] == "you":  # up to the bots' next decision
            first = p["moves"][0]["moves"][0]["id"]
            _, p = request(server, "POST", f"/api/games/{p['id']}/move",
                           {"version": p["version"], "action": first})  # fmt: skip
        status, answer = request(server, "POST", f"/api/games/{p['id']}/advance",
                                 {"version": p["version"]})  # fmt: skip
        assert status == 500 and "the bot's network is missing" in answer["error"]
        assert request(server, "GET", f"/api/games/{p['id']}")[1] == p
