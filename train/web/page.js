// The browser game's page (train/web): draws the payload the server sends for the person's
// seat, sends the person's moves and asks the server for the others' moves, one request
// after another at the chosen pace. Every request carries the version the page shows; a
// refused one (a stale page, an illegal move) is said in #error and the page redraws the
// game as the server has it. The game's id is kept in the URL (#game=ID): a reload shows
// the same game. URL options: ?delay=MS (the bots' pace), ?poll=MS (how often an idle page
// looks for moves made elsewhere, e.g. in another tab; 0: never).
'use strict';

const params = new URLSearchParams(location.search);
const pollMs = params.has('poll') ? Number(params.get('poll')) : 2000;
let payload = null;
let busy = false;
let shownVersion = -1; // the feed's entries after it are marked new
let advanceTimer = null;
let stalled = false; // a bot failed: the page waits for "Continue" before asking again

const $ = (id) => document.getElementById(id);

window.addEventListener('error', (e) => {
  $('errors').textContent += `${e.message} (${e.filename}:${e.lineno})\n`;
});

function paceMs() {
  if (params.has('delay')) return Number(params.get('delay'));
  return Number($('pace').value);
}

async function api(method, path, body) {
  const init = { method };
  if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data;
  try {
    data = await response.json();
  } catch (err) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function gameId() {
  const m = location.hash.match(/game=([A-Za-z0-9_-]+)/);
  return m ? m[1] : null;
}

function setBusy(on) {
  busy = on;
  document.body.dataset.state = on ? 'busy' : (payload ? payload.status : 'loading');
  for (const b of document.querySelectorAll('button.move')) b.disabled = on;
}

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = !message;
}

// --- drawing ---------------------------------------------------------------------------------
function show(p) {
  const fresh = !payload || payload.id !== p.id;
  payload = p;
  if (gameId() !== p.id) history.replaceState(null, '', `${location.search}#game=${p.id}`);
  document.title = `${p.title}: play against the bots`;
  $('title').textContent = p.title;
  $('players').textContent = p.players
    .map((q) => `${q.name}: ${q.name === p.you ? 'you' : q.agent}`).join(' · ');
  $('board').innerHTML = p.board;
  drawDecision(p);
  drawFeed(p, fresh);
  const save = $('save');
  const over = p.status === 'over';
  save.classList.toggle('disabled', !over);
  save.setAttribute('aria-disabled', String(!over));
  if (over) {
    save.href = `/api/games/${p.id}/history`;
    save.download = `${p.game}-${p.id}.json`;
    save.title = 'the game\'s history (python -m train.replay GAME.json --html opens it)';
  } else {
    save.removeAttribute('href');
    save.title = 'a game is saved once it is over';
  }
  document.body.dataset.version = String(p.version);
  document.body.dataset.game = p.id;
  shownVersion = p.version;
  setBusy(false);
  clearTimeout(advanceTimer);
  $('continue').hidden = !(stalled && p.status === 'others');
  if (p.status === 'others' && !stalled) advanceTimer = setTimeout(advance, paceMs());
}

function words(name) {
  return (name || '').replace(/_/g, ' ');
}

function drawDecision(p) {
  const box = $('decision');
  const moves = $('moves');
  const result = $('result');
  moves.replaceChildren();
  result.hidden = true;
  const act = p.to_act;
  const reaction = p.status === 'you' && act && Boolean(act.window);
  box.classList.toggle('reaction', Boolean(reaction));
  if (p.status === 'over') {
    $('prompt').textContent = 'The game is over';
    result.hidden = false;
    result.textContent = p.result.text;
    result.className = p.result.you_won ? 'won' : 'lost';
    return;
  }
  if (p.status === 'others') {
    const where = act && act.phase ? ` (${words(act.phase)})` : '';
    const label = p.players.find((q) => q.name === act.name);
    const who = act.name === p.you ? 'You' : `${act.name} (${label.agent})`;
    $('prompt').textContent = `${who} ${act.name === p.you ? 'play your only move' : 'is deciding'}${where}…`;
    return;
  }
  if (reaction) {
    const owner = act.window_owner === p.you ? 'yours' : `of ${act.window_owner}`;
    const turn = act.out_of_turn ? `, ${act.turn_of}'s turn` : '';
    $('prompt').textContent = `Reaction window (${words(act.window)} ${owner}${turn}): react, or pass`;
  } else {
    const phase = act.phase ? `: ${words(act.phase)}` : '';
    const target = act.reaction ? `, the target of your ${words(act.reaction)}` : '';
    $('prompt').textContent = `Your decision${phase}${target}`;
  }
  for (const group of p.moves) {
    const set = document.createElement('fieldset');
    set.className = `group kind-${group.kind}`;
    const legend = document.createElement('legend');
    legend.textContent = group.title;
    set.append(legend);
    for (const m of group.moves) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `move ${group.kind}`;
      b.dataset.action = String(m.id);
      b.dataset.name = m.name;
      const text = group.kind === 'pass' && reaction ? `Pass: ${m.meaning}` : m.meaning;
      b.append(text);
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = m.name;
      b.append(name);
      b.addEventListener('click', () => move(m.id));
      set.append(b);
    }
    moves.append(set);
  }
}

function drawFeed(p, fresh) {
  const feed = $('feed');
  const box = $('log-box');
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  feed.replaceChildren();
  for (const entry of p.feed) {
    const isNew = !fresh && entry.n > shownVersion;
    if (entry.passes) {
      feed.append(item(null, `${entry.passes.join(', ')} ${entry.passes.length > 1 || entry.passes[0] === 'you' ? 'pass' : 'passes'}`, isNew));
      continue;
    }
    for (const line of entry.lines) {
      if (line.startsWith('-- ')) {
        const li = item(null, line.replace(/^-- | --$/g, ''), false);
        li.classList.add('turn');
        feed.append(li);
      } else {
        feed.append(item(entry.who, line, isNew));
      }
    }
  }
  if (atBottom || fresh) box.scrollTop = box.scrollHeight;
}

function item(who, text, isNew) {
  const li = document.createElement('li');
  if (who) {
    const w = document.createElement('span');
    w.className = 'who';
    w.textContent = `${who}:`;
    li.append(w);
  }
  li.append(text);
  if (isNew) li.classList.add('new');
  return li;
}

// --- requests --------------------------------------------------------------------------------
async function request(work, quietStale) {
  if (busy) return;
  setBusy(true);
  try {
    const p = await work();
    if (p.id === gameId()) { // not the answer about a game the page has left
      showError('');
      show(p);
    }
  } catch (err) {
    if (!(quietStale && err.status === 409)) showError(err.message);
    stalled = err.status >= 500;
    await reload();
  } finally {
    if (busy) setBusy(false);
  }
}

async function reload() {
  try {
    show(await api('GET', `/api/games/${gameId() || 'latest'}`));
  } catch (err) {
    showError(err.message);
    setBusy(false);
    $('new-game').open = true;
  }
}

function move(action) {
  const version = payload.version;
  request(() => api('POST', `/api/games/${payload.id}/move`, { version, action }), false);
}

function advance() {
  if (!payload || payload.status !== 'others') return;
  const version = payload.version;
  const body = { version, until_you: paceMs() === 0 };
  // another tab may have advanced this version first: then this page just catches up
  request(() => api('POST', `/api/games/${payload.id}/advance`, body), true);
}

async function poll() {
  if (busy || !payload || payload.status === 'others' || document.hidden) return;
  try {
    const p = await api('GET', `/api/games/${payload.id}`);
    if (!busy && p.id === payload.id && p.version > payload.version) show(p);
  } catch (err) {
    // the game is gone (the server was restarted): said at the next move
  }
}

// --- the new-game form -----------------------------------------------------------------------
let options = null;

function fillForm(settings) {
  const game = options.games[settings.game];
  $('f-game').value = settings.game;
  $('f-players').min = game.players[0];
  $('f-players').max = game.players[1];
  $('f-players').value = settings.players || game.default_players;
  $('f-rules').replaceChildren();
  for (const name of game.presets) $('f-rules').append(new Option(name, name));
  $('f-rules').disabled = game.presets.length === 0;
  if (game.presets.length) $('f-rules').value = settings.rules || game.default_rules;
  $('f-seat').value = settings.seat || 0;
  $('f-opponents').value = settings.opponents.join(' ');
}

async function setUpForm() {
  options = await api('GET', '/api/options');
  for (const [name, g] of Object.entries(options.games)) $('f-game').append(new Option(g.title, name));
  for (const name of options.agents) $('agent-names').append(new Option(name));
  fillForm(options.first);
  $('f-game').addEventListener('change', () => {
    const name = $('f-game').value;
    const opponents = name === 'district_noir' ? ['district-heuristic'] : options.first.opponents;
    fillForm({ game: name, seat: 0, opponents });
  });
  $('new-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const seed = $('f-seed').value;
    const settings = {
      game: $('f-game').value,
      players: Number($('f-players').value),
      rules: $('f-rules').disabled ? null : $('f-rules').value,
      seat: Number($('f-seat').value),
      opponents: $('f-opponents').value.trim().split(/\s+/),
      seed: seed === '' ? null : Number(seed),
    };
    newGame(settings);
  });
}

async function newGame(settings) {
  clearTimeout(advanceTimer);
  $('deal').disabled = true;
  try {
    const p = await api('POST', '/api/games', settings);
    history.replaceState(null, '', `${location.search}#game=${p.id}`);
    payload = null;
    showError('');
    show(p);
    $('new-game').open = false;
  } catch (err) {
    showError(err.message);
  } finally {
    $('deal').disabled = false;
  }
}

$('continue').addEventListener('click', () => {
  stalled = false;
  $('continue').hidden = true;
  advance();
});
$('pace').addEventListener('change', () => localStorage.setItem('noir-pace', $('pace').value));
if (localStorage.getItem('noir-pace') !== null) $('pace').value = localStorage.getItem('noir-pace');
window.addEventListener('hashchange', () => {
  if (payload && gameId() && gameId() !== payload.id) reload();
});
setUpForm().catch((err) => showError(err.message));
reload();
if (pollMs > 0) setInterval(poll, pollMs);
