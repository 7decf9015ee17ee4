"""A browser game's server for tests (`train.web`), and plain HTTP requests to it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from contextlib import contextmanager
from typing import Any

from train.web import Settings, WebServer


@contextmanager
def running(**settings: Any):
    """A server of the browser game in a background thread, its first game dealt with
    `settings` (`train.web.Settings`)."""
    server = WebServer(Settings(**settings))
    server.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def request(server: WebServer, method: str, path: str, body: Any = None, raw: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
    """(status, the JSON answer) of one request; `body` is sent as JSON, `raw` as it is."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    head = {"Content-Type": "application/json"} if data is not None else {}
    head.update(headers or {})
    req = urllib.request.Request(server.url.rstrip("/") + path, data, head, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def play_first_moves(server: WebServer, game_id: str, until: int | None = None) -> dict:
    """Play game `game_id` through the API, the human always taking the first listed move,
    until it is over (or the human has decided `until` times); its last payload."""
    _, p = request(server, "GET", f"/api/games/{game_id}")
    decided = 0
    while p["status"] != "over" and (until is None or decided < until):
        if p["status"] == "others":
            status, p = request(server, "POST", f"/api/games/{game_id}/advance",
                                {"version": p["version"], "until_you": True})  # fmt: skip
        else:
            action = p["moves"][0]["moves"][0]["id"]
            status, p = request(server, "POST", f"/api/games/{game_id}/move",
                                {"version": p["version"], "action": action})  # fmt: skip
            decided += 1
        assert status == 200, p
    return p
