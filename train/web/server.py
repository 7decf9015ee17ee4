"""The browser game's local HTTP server: one page, and a small JSON API over the games it
keeps (`session.GameSession`, keyed by a game id).

The standard library's `http.server` (a `ThreadingHTTPServer`) and `json` are enough: one
person plays on their own machine, a handful of requests a second at most, and each request
is a short call into a game held in memory. A web framework would add a dependency (and its
releases to follow) for routing six paths; threads let the page be answered while a slow
bot (a search agent) thinks in another request, each game taking one request at a time
under its own lock.

    GET  /                             the page (train/web/page.html, .js, .css)
    GET  /api/options                  the games, presets, agent names and the first settings
    GET  /api/games/latest             the newest game's payload (a page opened without an id)
    GET  /api/games/<id>               a game's payload (what the human's seat may know)
    POST /api/games                    a new game: {"game", "players", "rules", "seat",
                                       "opponents", "seed"} -> its payload
    POST /api/games/<id>/move          {"version", "action"}: the human's decision
    POST /api/games/<id>/advance       {"version", "until_you"}: the others' next decisions
    GET  /api/games/<id>/history       the finished game's history, as a file to save

Every error is JSON, `{"error": "..."}`, with its status (400 a malformed request, 403 a
foreign Host, 404 an unknown game or path, 409 a stale version or a request the game's state
does not allow, 413 a body too large, 415 not JSON, 422 an illegal move) and changes
nothing. Only requests whose Host is this server's own address are answered (a web page
elsewhere cannot reach the game through DNS rebinding), and POST bodies must be JSON, which
a page of another origin cannot send here without the browser asking first (CORS), which
this server never allows.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from noir_env.game import get_game

from .session import GameSession, Settings, WebError

WEB_GAMES = ("noir", "district_noir")  # the games with board pictures
MAX_GAMES = 32  # games kept; the least recently created are dropped past it
MAX_BODY = 1 << 16
STATIC = {
    "/": ("page.html", "text/html; charset=utf-8"),
    "/page.js": ("page.js", "text/javascript; charset=utf-8"),
    "/page.css": ("page.css", "text/css; charset=utf-8"),
}
GAME_PATH = re.compile(r"^/api/games/([A-Za-z0-9_-]{1,32})(?:/(move|advance|history))?$")


class Games:
    """The games the server keeps, by id, and the settings of the first one."""

    def __init__(self, first: Settings):
        self.first = first
        self._games: OrderedDict[str, GameSession] = OrderedDict()
        self._lock = threading.Lock()

    def new(self, settings: Settings) -> GameSession:
        """A new game (ValueError for bad settings, as WebError 400)."""
        if settings.game not in WEB_GAMES:
            raise WebError(400, f"game must be one of {list(WEB_GAMES)}, got {settings.game!r}")
        try:
            session = GameSession(secrets.token_urlsafe(8), settings)
        except ValueError as err:
            raise WebError(400, str(err).splitlines()[0]) from None
        with self._lock:
            self._games[session.id] = session
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        return session

    def get(self, game_id: str) -> GameSession:
        with self._lock:
            if game_id == "latest" and self._games:
                return next(reversed(self._games.values()))
            if game_id in self._games:
                return self._games[game_id]
        raise WebError(404, f"no game {game_id!r} (the server keeps the last {MAX_GAMES})")

    def options(self) -> dict[str, Any]:
        """What the page's new-game form offers."""
        from agents import names

        games = {}
        for name in WEB_GAMES:
            g = get_game(name)
            games[name] = {"title": g.title, "players": [g.min_players, g.max_players],
                           "default_players": g.default_players, "presets": list(g.presets),
                           "default_rules": g.default_rules}  # fmt: skip
        return {"games": games, "agents": list(names()), "first": asdict(self.first)}


class Handler(BaseHTTPRequestHandler):
    """One request (module docstring); `server.games` holds the games."""

    server: WebServer  # HTTP/1.0: a connection per request (an unread body cannot linger)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # quiet: the terminal shows the address and errors only

    def do_GET(self) -> None:
        self._answer(self._get)

    def do_POST(self) -> None:
        self._answer(self._post)

    def _answer(self, work) -> None:
        try:
            self._check_host()
            status, body, headers = work()
        except WebError as err:
            status, body, headers = err.status, _error(str(err)), {}
        except Exception as err:  # a bot that failed: said, and the server goes on
            status, body, headers = 500, _error(f"{type(err).__name__}: {err}"), {}
        self.send_response(status)
        ctype = headers.pop("Content-Type", "application/json")
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _check_host(self) -> None:
        port = self.server.server_address[1]
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            raise WebError(403, "this server answers only at its own address")

    def _get(self) -> tuple[int, bytes, dict[str, str]]:
        path = self.path.split("?")[0]
        if path == "/favicon.ico":
            return 204, b"", {}
        if path in STATIC:
            name, ctype = STATIC[path]
            text = resources.files(__package__).joinpath(name).read_bytes()
            return 200, text, {"Content-Type": ctype}
        games = self.server.games
        if path == "/api/options":
            return 200, json.dumps(games.options()).encode(), {}
        m = GAME_PATH.match(path)
        if m is None or m.group(2) in ("move", "advance"):
            raise WebError(404, f"no such page: GET {path}")
        session = games.get(m.group(1))
        if m.group(2) == "history":
            history = json.dumps(session.history()).encode()
            name = f"{session.game.name}-{session.id}.json"
            return 200, history, {"Content-Disposition": f'attachment; filename="{name}"'}
        return 200, session.payload_json(), {}

    def _post(self) -> tuple[int, bytes, dict[str, str]]:
        body = self._json_body()
        path = self.path.split("?")[0]
        games = self.server.games
        if path == "/api/games":
            return 201, games.new(Settings.from_json(body)).payload_json(), {}
        m = GAME_PATH.match(path)
        if m is None or m.group(2) not in ("move", "advance") or m.group(1) == "latest":
            raise WebError(404, f"no such request: POST {path}")
        session = games.get(m.group(1))
        if not isinstance(body, dict) or "version" not in body:
            raise WebError(400, "the request is a JSON object with the page's 'version'")
        if m.group(2) == "advance":
            return 200, session.advance(body["version"], body.get("until_you", False)), {}
        if "action" not in body:
            raise WebError(400, "a move names its 'action' (an action id)")
        return 200, session.move(body["version"], body["action"]), {}

    def _json_body(self) -> Any:
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip()
        if ctype != "application/json":
            raise WebError(415, f"the body must be JSON (Content-Type application/json), "
                                f"got {ctype or 'none'!r}")  # fmt: skip
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise WebError(411, "the request has no Content-Length") from None
        if not 0 <= length <= MAX_BODY:
            raise WebError(413, f"the body is {length} bytes; at most {MAX_BODY}")
        raw = self.rfile.read(length)
        try:
            return json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise WebError(400, f"the body is not JSON: {err}") from None


def _error(message: str) -> bytes:
    return json.dumps({"error": message}).encode()


class WebServer(ThreadingHTTPServer):
    """The server bound to `host`:`port` (0: a free port), its first game dealt."""

    daemon_threads = True

    def __init__(self, first: Settings, port: int = 0, host: str = "127.0.0.1"):
        if not 0 <= port <= 65535:
            raise ValueError(f"--port must be in 0..65535 (0: a free one), got {port}")
        self.games = Games(first)
        try:
            self.games.new(first)  # bad settings fail here, before the server listens
        except WebError as err:
            raise ValueError(str(err)) from None
        super().__init__((host, port), Handler)
        self.host = host

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server_address[1]}/"

    def start(self) -> threading.Thread:
        """Serve in a background thread (tests, scripts); `shutdown()` stops it."""
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread
