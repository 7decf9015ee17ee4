"""Play in the browser: `python -m train.play --web` serves one local page where a person
plays NOIR or District Noir against any agents of `agents.load`.

    python -m train.play --web --players 4 --opponents ppo      # prints the page's address

The server (`server.py`, the standard library's) binds 127.0.0.1, on a free port unless
`--port` names one, and keeps each game (`session.py`: the AEC env and the bots) in memory
by a game id, so reloading the page loses nothing. The page (page.html, page.js, page.css:
no build step) shows the board from the person's seat, the legal moves as buttons grouped
by kind with their cost and effect, reaction windows as a prompt, the others' moves one
after another with the game log, the result, and buttons for a new game and for saving a
finished game's history (`python -m train.replay GAME.json --html` opens it). What the page
receives is built from the person's seat's view alone (`payload.py`).
"""

from __future__ import annotations

import sys

from .server import WebServer
from .session import GameSession, Settings, WebError

__all__ = ["GameSession", "Settings", "WebError", "WebServer", "serve"]


def serve(first: Settings, port: int = 0, out=None) -> None:
    """Deal the first game with `first`, print the page's address and serve until Ctrl+C.
    ValueError for bad settings (before anything listens)."""
    out = out or sys.stdout
    server = WebServer(first, port)
    print(f"Play in your browser: {server.url}  (Ctrl+C stops the server)", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nServer stopped.", file=out)
    finally:
        server.server_close()
