"""The replay viewer: one self-contained HTML page (no server, no network) showing a
replayed game's board at every decision, the game log beside it, step / play / jump
controls, keyboard keys and a viewpoint selector.

The page embeds, for every viewpoint it offers and every decision, the board drawn from
that viewpoint (`noir_env.picture`: a seat's board is decoded from that seat's observation).
The boards are stored as parts (`scene.svg_parts`): each distinct part once, each board a
list of part numbers, so the public parts shared by consecutive decisions and by the
viewpoints cost nothing twice. The data is gzipped JSON in base64, which the browser
inflates itself (`DecompressionStream`): a 650-decision game with every viewpoint takes
0.1 MB (`read_page_data` reads the data back). A page made for seats only
(`views=["player_1"]`) holds no spectator data, hence no card that seat could not see; the
log lines and action names are public in both games (every card played, discarded or taken
is shown to all).

The page reads and writes its position in the URL: `page.html#step=12&view=player_1`.
Keys: Left/Right one decision, Shift+Left/Right ten, Home/End, Space plays or pauses, V the
next viewpoint. Script errors are written into the page (`#errors`), where tests read them.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from noir_env._atomic import atomic_write_text
from noir_env.picture import scene
from noir_env.picture.scene import svg_open, svg_parts

if TYPE_CHECKING:
    from .replay import Replay


def viewpoints(game: Replay, chosen: list[str]) -> list[tuple[str, int | None]]:
    """(label, seat or None) of each viewpoint named in `chosen`: "all" (the spectator and
    every seat), "spectator", "player_<k>". ValueError for another name, and for a seat's
    view of a game recorded in the core's fast mode (`Replay.ask_all` false: who was asked
    to decide shows who holds a card), of which "all" is the spectator's view alone."""
    seats = len(game.names) if game.ask_all else 0
    every = [("spectator", None)] + [(f"player_{q}", q) for q in range(seats)]
    known = dict(every)
    out: list[tuple[str, int | None]] = []
    for name in chosen:
        if name == "all":
            out += every
        elif not game.ask_all and name.startswith("player_"):
            raise ValueError(
                f"no {name} view of this game: its history was recorded with ask_all false "
                "(the vector envs' fast mode), where who is asked to decide tells who holds "
                "a card; only the spectator's view can be shown"
            )
        elif name in known:
            out.append((name, known[name]))
        else:
            raise ValueError(f"unknown viewpoint {name!r}: all, {', '.join(known)}")
    return list(dict.fromkeys(out))


def page_data(game: Replay, views: list[tuple[str, int | None]], title: str) -> dict:
    """What the page embeds: the parts, each viewpoint's boards as part numbers, and each
    decision's agent, action and log lines."""
    parts: dict[str, int] = {}
    boards: dict[str, list[list[int]]] = {label: [] for label, _ in views}
    opening = ""
    for d in game.decisions:
        for label, seat in views:
            picture = scene(d.state, 0, seat, game.names, game.rules_name)
            opening = opening or svg_open(picture)
            ids = [parts.setdefault(frag, len(parts)) for frag in svg_parts(picture).values()]
            boards[label].append(ids)
    names = {f"player_{q}": name for q, name in enumerate(game.names)}
    return {
        "title": title,
        "svg_open": opening,
        "parts": list(parts),
        "views": [label for label, _ in views],
        "boards": boards,
        "decisions": [
            {"agent": d.agent and names.get(d.agent, d.agent), "action": d.action, "log": d.log}
            for d in game.decisions
        ],  # fmt: skip
    }


def write_html(game: Replay, path: str | Path, views: list[str] | None = None,
               title: str = "replay") -> int:  # fmt: skip
    """Write the viewer of `game` to `path` (atomically) with the viewpoints `views`
    (default: all); returns the page's size in bytes."""
    data = page_data(game, viewpoints(game, views or ["all"]), title)
    raw = json.dumps(data, separators=(",", ":")).encode("utf-8")
    blob = base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")  # mtime 0: same bytes
    page = (TEMPLATE.replace("__TITLE__", escape(title))
            .replace("__DATA__", blob).replace("__SCRIPT__", SCRIPT))  # fmt: skip
    atomic_write_text(path, page)
    return len(page.encode("utf-8"))


def read_page_data(page: str) -> dict:
    """The data a page written by `write_html` embeds (its text given)."""
    m = re.search(r'<script id="game-data" type="application/gzip">([^<]*)</script>', page)
    if not m:
        raise ValueError("not a replay page of train.replay_html: no game data in it")
    return json.loads(gzip.decompress(base64.b64decode(m.group(1))))


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{font-family:DejaVu Sans,Verdana,sans-serif;margin:8px;background:#e9e2d4;color:#222}
#controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-bottom:6px}
#controls button{min-width:34px}#slider{flex:1;min-width:200px}
#main{display:flex;gap:8px;align-items:flex-start}
#board{flex:0 1 1280px;min-width:0}#board svg{width:100%;height:auto;display:block}
#log{flex:1 1 320px;max-height:88vh;overflow-y:auto;background:#fffaf0;
border:1px solid #b9a98f;padding:4px 8px;font-size:13px}
#log .decision{margin:3px 0}#log .now{background:#fdebd0}#log .who{font-weight:bold}
#log ul{margin:0;padding-left:18px}#errors{color:#c0392b;white-space:pre-wrap}
</style></head>
<body>
<div id="errors"></div>
<div id="controls">
<button id="first" title="first decision (Home)">|&lt;</button>
<button id="prev" title="previous decision (Left; Shift: 10)">&lt;</button>
<button id="play" title="play / pause (Space)">play</button>
<button id="next" title="next decision (Right; Shift: 10)">&gt;</button>
<button id="last" title="last decision (End)">&gt;|</button>
<input id="slider" type="range" min="0" value="0">
<span id="where"></span>
<label>view <select id="view" title="viewpoint (V)"></select></label>
<label>speed <select id="speed"><option value="1000">1/s</option>
<option value="400" selected>2.5/s</option><option value="100">10/s</option></select></label>
</div>
<div id="main"><div id="board"></div><div id="log"></div></div>
<script id="game-data" type="application/gzip">__DATA__</script>
<script>__SCRIPT__</script>
</body></html>
"""

SCRIPT = """
window.onerror = function (msg, src, line) {
  var e = document.createElement('div'); e.className = 'error';
  e.textContent = 'error: ' + msg + ' (line ' + line + ')';
  document.getElementById('errors').appendChild(e);
};
function inflate(id) {  // the embedded data: base64 of gzipped JSON
  var bytes = Uint8Array.from(atob(document.getElementById(id).textContent),
                              function (c) { return c.charCodeAt(0); });
  var text = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(text).text().then(JSON.parse);
}
inflate('game-data').then(function (D) {
  var last = D.decisions.length - 1, step = 0, view = D.views[0], timer = null;
  var $ = function (id) { return document.getElementById(id); };
  document.title = D.title;
  $('slider').max = last;
  D.views.forEach(function (v) {
    var o = document.createElement('option'); o.value = v; o.textContent = v;
    $('view').appendChild(o);
  });
  function readHash() {
    var h = new URLSearchParams(location.hash.slice(1));
    var s = parseInt(h.get('step'), 10);
    if (!isNaN(s)) step = Math.max(0, Math.min(last, s));
    if (D.views.indexOf(h.get('view')) >= 0) view = h.get('view');
  }
  function logEntry(k) {
    var d = D.decisions[k], div = document.createElement('div');
    div.className = 'decision' + (k === step ? ' now' : '');
    var head = document.createElement('div');
    head.innerHTML = '<span class="who"></span> ';
    head.firstChild.textContent = k === 0 ? 'the deal' : k + '. ' + d.agent;
    head.appendChild(document.createTextNode(d.action ? d.action : ''));
    div.appendChild(head);
    if (d.log.length) {
      var ul = document.createElement('ul');
      d.log.forEach(function (line) {
        var li = document.createElement('li'); li.textContent = line; ul.appendChild(li);
      });
      div.appendChild(ul);
    }
    return div;
  }
  function show() {
    var ids = D.boards[view][step];
    $('board').innerHTML = D.svg_open + ids.map(function (i) { return D.parts[i]; }).join('')
      + '</svg>';
    $('board').setAttribute('data-step', step);
    $('board').setAttribute('data-view', view);
    $('slider').value = step; $('view').value = view;
    $('where').textContent = 'decision ' + step + ' / ' + last;
    var log = $('log'); log.innerHTML = '';
    for (var k = Math.max(0, step - 40); k <= step; k++) log.appendChild(logEntry(k));
    log.scrollTop = log.scrollHeight;
    history.replaceState(null, '', '#step=' + step + '&view=' + view);
  }
  function go(s) { step = Math.max(0, Math.min(last, s)); show(); }
  function play() {
    if (timer) { clearInterval(timer); timer = null; $('play').textContent = 'play'; return; }
    if (step >= last) step = 0;
    $('play').textContent = 'pause';
    timer = setInterval(function () { if (step >= last) play(); else go(step + 1); },
                        parseInt($('speed').value, 10));
  }
  $('first').onclick = function () { go(0); };
  $('prev').onclick = function () { go(step - 1); };
  $('next').onclick = function () { go(step + 1); };
  $('last').onclick = function () { go(last); };
  $('play').onclick = play;
  $('slider').oninput = function () { go(parseInt(this.value, 10)); };
  $('view').onchange = function () { view = this.value; show(); };
  $('speed').onchange = function () { if (timer) { play(); play(); } };
  window.addEventListener('hashchange', function () { readHash(); show(); });
  document.addEventListener('keydown', function (e) {
    if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    var k = e.key, by = e.shiftKey ? 10 : 1;
    if (k === 'ArrowRight') go(step + by); else if (k === 'ArrowLeft') go(step - by);
    else if (k === 'Home') go(0); else if (k === 'End') go(last);
    else if (k === ' ') play();
    else if (k === 'v' || k === 'V') {
      view = D.views[(D.views.indexOf(view) + 1) % D.views.length]; show();
    } else return;
    e.preventDefault();
  });
  readHash(); show();
}).catch(function (e) { window.onerror(String(e), '', 0); });
"""
