// The web board: one WebSocket, one game at a time. Plain ES module, no build step.
import { render, parseMove } from './boards.js';

const $ = (id) => document.getElementById(id);
const log = (window.yomiLog = []); // every message received, as text (tests read it)
let ws = null;
let S = null; // the last state message
let games = [];
let sel = null; // click selection: {from, unit, to}
let heat = new Map();
let analysis = null;
let tab = 'play';

// ---- connection -----------------------------------------------------------------------

function connect() {
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.onopen = () => {
    $('conn').textContent = 'connected';
    resumeFromUrl();
  };
  ws.onclose = () => {
    $('conn').textContent = 'disconnected; retrying…';
    setTimeout(connect, 1000);
  };
  ws.onmessage = (e) => {
    log.push(e.data);
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    onMessage(m);
  };
}

export function send(obj) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
  else say('not connected');
}
window.yomiSend = send;

function say(s) { $('message').textContent = s || ''; }

function onMessage(m) {
  switch (m.type) {
    case 'state': onState(m); break;
    case 'error':
      say(m.reason);
      if (pendingResume) { pendingResume = false; rebuildFromUrl(); }
      break;
    case 'analysis': onAnalysis(m); break;
    case 'standings': onStandings(m); break;
    case 'pong': window.yomiPong && window.yomiPong(m.t); break;
    default: break;
  }
}

// ---- the URL: a reload resumes the game -------------------------------------------------

let pendingResume = false;
function resumeFromUrl() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get('id')) { pendingResume = true; send({ type: 'resume', id: h.get('id') }); }
}
function rebuildFromUrl() {
  const h = new URLSearchParams(location.hash.slice(1));
  const g = h.get('g');
  if (!g) return;
  try { send({ type: 'new', ...JSON.parse(g) }); } catch { say('cannot rebuild the game from the address'); }
}
function saveUrl() {
  if (!S || S.mode !== 'play') return;
  const h = new URLSearchParams();
  h.set('id', S.id);
  if (S.rebuildable) h.set('g', JSON.stringify({ game: S.game, seats: S.seats, seed: S.seed, moves: S.moves }));
  history.replaceState(null, '', '#' + h.toString());
}

// ---- the set-up form, built from the registry's parameter docs ------------------------------

async function loadGames() {
  try {
    games = await (await fetch('/api/games')).json();
  } catch { games = []; }
  $('game-list').innerHTML = '';
  for (const g of games) {
    const o = document.createElement('option');
    o.value = g.name;
    $('game-list').appendChild(o);
  }
  await gameChanged();
}

async function describe(name) {
  let g = games.find((x) => x.name === name);
  if (g) return g;
  const r = await fetch('/api/game?name=' + encodeURIComponent(name));
  if (!r.ok) throw new Error(await r.text());
  g = await r.json();
  games.push(g);
  return g;
}

async function gameChanged() {
  const name = $('game').value.trim();
  let g;
  try { g = await describe(name); } catch (e) { $('game-summary').textContent = String(e.message || e); return; }
  $('game-summary').textContent = g.summary;
  const seats = $('seats');
  seats.innerHTML = '';
  g.players.forEach((p, i) => {
    const d = document.createElement('div');
    d.className = 'seat';
    d.innerHTML = `<label>${p} <select class="kind" id="seat${i}"></select></label><div class="params"></div>`;
    const s = d.querySelector('select');
    const human = document.createElement('option');
    human.value = 'human'; human.textContent = 'human';
    s.appendChild(human);
    for (const a of g.agents) {
      const o = document.createElement('option');
      o.value = a.name; o.textContent = a.name; o.title = a.summary;
      s.appendChild(o);
    }
    const def = tab === 'watch' ? 'mcts' : (i === 0 ? 'human' : 'mcts');
    s.value = g.agents.some((a) => a.name === def) || def === 'human' ? def : (g.agents[0] || {}).name || 'human';
    const params = d.querySelector('.params');
    const fill = () => {
      params.innerHTML = '';
      const a = g.agents.find((x) => x.name === s.value);
      if (!a) return;
      for (const p of a.params) {
        const l = document.createElement('label');
        l.title = p.help;
        l.innerHTML = `<span>${p.key}</span>`;
        const inp = document.createElement('input');
        inp.dataset.key = p.key;
        inp.placeholder = p.default;
        if (p.key === 'iters' && a.name === 'mcts') inp.value = '2000';
        l.appendChild(inp);
        params.appendChild(l);
      }
    };
    s.onchange = fill;
    fill();
    seats.appendChild(d);
  });
}

// An agent spec from the form: the name, then the keys given (`mcts:iters=2000,c=0.7`).
function seatSpec(i) {
  const s = $('seat' + i).value;
  if (s === 'human') return 'human';
  const kv = [...$('seat' + i).closest('.seat').querySelectorAll('.params input')]
    .filter((x) => x.value.trim() !== '')
    .map((x) => `${x.dataset.key}=${x.value.trim()}`);
  return kv.length ? `${s}:${kv.join(',')}` : s;
}

function startGame(ev) {
  ev && ev.preventDefault();
  const n = $('seats').querySelectorAll('.seat').length;
  const seats = [...Array(n).keys()].map(seatSpec);
  send({ type: 'new', game: $('game').value.trim(), seats, seed: +$('seed').value || 0, delay_ms: +$('delay').value || 0 });
}

// ---- the position ------------------------------------------------------------------

function onState(m) {
  pendingResume = false;
  if (wantPly !== null && m.ply === wantPly) wantPly = null;
  const changed = !S || S.id !== m.id || S.ply !== m.ply || S.moves.length !== m.moves.length;
  S = window.yomiState = m;
  if (changed) { sel = null; heat = new Map(); analysis = null; $('analysis').innerHTML = ''; }
  if (changed) say('');
  saveUrl();
  draw();
}

function legalParsed() {
  return S.legal.map((l) => ({ ...l, m: parseMove(S.view.style, S.view, l.text) }));
}

function draw() {
  if (!S) return;
  const v = S.view;
  const names = S.players;
  const act = S.to_act.map((p) => `${names[p]} (${S.seats[p]})`).join(', ');
  let status = S.terminal ? 'game over' : `to move: ${act}`;
  if (S.thinking !== null && S.thinking !== undefined && !S.terminal) status += ` — ${names[S.thinking]} is thinking…`;
  if (S.mode === 'replay') status = `replay: ${S.game}, move ${S.ply} of ${S.moves.length}` + (S.terminal ? ' (end)' : '');
  if (S.paused) status += ' (paused)';
  $('status').textContent = `${S.game}: ${status}`;
  const res = $('result');
  if (S.result && (S.terminal || S.ply === S.moves.length)) { res.hidden = false; res.textContent = S.result; } else { res.hidden = true; }

  // Targets to highlight for the current selection.
  const parsed = legalParsed();
  const targets = new Set();
  let unitTargets = null;
  const style = v.style;
  for (const l of parsed) {
    if (!l.m) continue;
    if (l.m.from === undefined) targets.add(l.m.column ? null : l.m.to);
    else if (!sel) targets.add(l.m.from);
    else if (l.m.from === sel.from && (style !== 'tubstap' || l.m.unit === sel.unit)) {
      if (style === 'tubstap' && sel.to) {
        if (l.m.to === sel.to) {
          if (l.m.target !== null) { unitTargets = unitTargets || new Set(); unitTargets.add(l.m.target); } else targets.add(l.m.to);
        }
      } else targets.add(l.m.to);
    }
  }
  if (style === 'connect4') {
    const cols = new Set(S.legal.map((l) => l.text));
    v.names.forEach((n) => { if (cols.has(n)) targets.add(n); });
    // Only the lowest empty cell of each legal column.
    const keep = new Set();
    for (let c = 0; c < v.width; c++) {
      for (let r = v.height - 1; r >= 0; r--) {
        const i = r * v.width + c;
        if (!v.cells[i]) { if (cols.has(v.names[i])) keep.add(i); break; }
      }
    }
    targets.clear();
    for (const i of keep) targets.add(v.names[i]);
  }
  const last = S.ply > 0 ? parseMove(style, v, S.moves[S.ply - 1] || '') : null;
  const ctx = {
    legalTargets: targets,
    selected: sel ? (sel.to || sel.from) : null,
    heat,
    marks: new Set(v.marks),
    lastTo: last && last.to,
    targets: unitTargets,
  };
  const board = $('board');
  board.innerHTML = '';
  // connect4 targets are named by column; mark every cell's name for clicks.
  const svg = render(v, ctx);
  if (svg) {
    board.appendChild(svg);
    svg.addEventListener('click', onBoardClick);
  } else if (v.style === 'gdl-facts') {
    const t = document.createElement('table');
    t.id = 'facts';
    for (const f of v.facts) t.insertRow().insertCell().textContent = f;
    board.appendChild(t);
  } else {
    const pre = document.createElement('pre');
    pre.textContent = v.text;
    board.appendChild(pre);
  }
  const setupBox = v.setup && S.legal.some((l) => l.text.startsWith('SET:')) ? drawSetup(svg) : null;

  // Controls: pass / end turn / a legal list for moves that are not on the board.
  const controls = $('controls');
  controls.innerHTML = '';
  // Put in synchronously, so the confirm button is never missing between two draws.
  if (setupBox) controls.appendChild(setupBox);
  for (const l of parsed) {
    if (l.m || l.text.startsWith('SET:')) continue;
    if (v.style === 'connect4' || v.style === 'gdl-facts' || v.style === 'text' || v.style === 'gdl-grid') continue;
    const b = document.createElement('button');
    b.textContent = /^pass$/i.test(l.text) ? 'Pass' : /^end$/i.test(l.text) ? 'End turn' : l.text;
    b.id = /^pass$/i.test(l.text) ? 'pass' : /^end$/i.test(l.text) ? 'end-turn' : '';
    b.onclick = () => playText(l.text, l.player);
    controls.appendChild(b);
  }
  const legal = $('legal');
  legal.innerHTML = '';
  for (const l of S.legal.slice(0, 400)) {
    const b = document.createElement('button');
    b.textContent = l.text;
    b.className = 'legal-move';
    b.onclick = () => playText(l.text, l.player);
    legal.appendChild(b);
  }
  const gdl = v.style.startsWith('gdl') || v.style === 'text';
  $('legal-box').open = gdl && S.legal.length > 0;

  // Info, moves, navigation, text.
  const info = $('info');
  info.innerHTML = '';
  for (const [k, val] of v.info) {
    const r = info.insertRow();
    r.insertCell().textContent = k;
    r.insertCell().textContent = val;
  }
  const ol = $('moves');
  ol.innerHTML = '';
  S.moves.forEach((mv, i) => {
    const li = document.createElement('li');
    li.textContent = mv;
    if (i + 1 === S.ply) li.className = 'now';
    li.onclick = () => send({ type: 'seek', ply: i + 1 });
    ol.appendChild(li);
  });
  $('nav').hidden = false;
  $('slider').max = S.moves.length;
  $('slider').value = S.ply;
  $('ply').textContent = `${S.ply} / ${S.moves.length}`;
  $('pause').textContent = S.paused ? 'Resume' : 'Pause';
  $('text').textContent = v.text;
}

// Geister's set-up screen: click 4 of your ghosts to make them red, then confirm.
// Marks the ghosts on the board and returns the confirm box for the controls.
let redPick = new Set();
function drawSetup(svg) {
  const letters = S.view.setup.letters;
  const box = document.createElement('div');
  box.id = 'setup-box';
  box.innerHTML = '<b>Set-up:</b> click 4 of your ghosts to make them red. ';
  const ok = document.createElement('button');
  ok.id = 'setup-ok';
  ok.textContent = 'Confirm set-up';
  ok.onclick = () => {
    if (redPick.size !== 4) { say('choose exactly 4 red ghosts'); return; }
    playText('SET:' + [...redPick].sort().join(''));
    redPick = new Set();
  };
  box.appendChild(ok);
  if (!svg) return box;
  for (const [letter, idx] of letters) {
    const g = svg.querySelector(`[data-cell="${idx}"]`);
    if (!g) continue;
    g.classList.add('setup');
    g.dataset.letter = letter;
    const piece = g.querySelector('.piece');
    if (piece) piece.setAttribute('fill', redPick.has(letter) ? '#c52424' : '#2457c5');
  }
  return box;
}

function onBoardClick(e) {
  const g = e.target.closest('.cell');
  if (!g || !S) return;
  const name = g.dataset.name;
  if (S.view.setup && g.dataset.letter && S.legal.some((l) => l.text.startsWith('SET:'))) {
    const l = g.dataset.letter;
    if (redPick.has(l)) redPick.delete(l); else if (redPick.size < 4) redPick.add(l);
    draw();
    return;
  }
  clickCell(name);
}

function playText(text, player) {
  sel = null;
  send(player === undefined ? { type: 'move', text } : { type: 'move', text, player });
}

export function clickCell(name) {
  const v = S.view, style = v.style;
  if (S.mode !== 'play') { say('this is a replay'); return; }
  if (S.terminal) { say('the game is over'); return; }
  if (S.legal.length === 0) { say(S.thinking !== null ? 'wait: the agent is thinking' : 'it is not your turn'); return; }
  const parsed = legalParsed();
  const pl = S.legal[0].player;
  switch (style) {
    case 'tictactoe': case 'othello': case 'go': case 'connect4':
      playText(name, pl); return;
    case 'gdl-grid':
      if (!parsed.some((l) => l.m && l.m.from)) {
        const c = parsed.filter((l) => l.m && l.m.to === name);
        if (c.length === 1) playText(c[0].text, c[0].player);
        else if (c.length === 0) say(`no legal move on ${name}; legal: ${S.legal.map((l) => l.text).join(' ')}`);
        else say(`several moves on ${name}: choose in the list`);
        return;
      }
    // falls through: moves from one cell to another
    case 'breakthrough': case 'geister': {
      if (sel) {
        const m = parsed.find((l) => l.m && l.m.from === sel.from && l.m.to === name);
        if (m) { playText(m.text, m.player); return; }
      }
      if (parsed.some((l) => l.m && l.m.from === name)) { sel = { from: name }; draw(); return; }
      if (!sel) { say(`${name}: select one of your pieces that can move (ringed)`); return; }
      if (style === 'gdl-grid') { say(`${sel.from} → ${name} is not a legal move`); sel = null; draw(); return; }
      // An illegal destination: let the game say why.
      let text;
      if (style === 'breakthrough') {
        const i = v.names.indexOf(name);
        text = `${sel.from}${v.cells[i] ? 'x' : '-'}${name}`;
      } else {
        const [fx, fy] = [+sel.from[0], +sel.from[1]];
        const [tx, ty] = [+name[0], +name[1]];
        const dir = tx === fx && ty === fy - 1 ? 'N' : tx === fx && ty === fy + 1 ? 'S' : ty === fy && tx === fx + 1 ? 'E' : ty === fy && tx === fx - 1 ? 'W' : null;
        if (!dir) { say(`${sel.from} → ${name}: a ghost moves one square north, east, south or west`); return; }
        text = `${sel.from}${dir}`;
      }
      sel = null;
      send({ type: 'move', text });
      return;
    }
    case 'tubstap': {
      const unitHere = v.units.find((u) => u.hp > 0 && `${u.x},${u.y}` === name);
      if (sel && sel.to) {
        if (name === sel.to) {
          const m = parsed.find((l) => l.m && l.m.unit === sel.unit && l.m.to === name && l.m.target === null);
          if (m) { playText(m.text); return; }
        }
        if (unitHere) {
          const m = parsed.find((l) => l.m && l.m.unit === sel.unit && l.m.to === sel.to && l.m.target === unitHere.id);
          if (m) { playText(m.text); return; }
          const text = `${sel.unit}@${sel.to}x${unitHere.id}`;
          sel = null;
          send({ type: 'move', text });
          return;
        }
      }
      if (sel && !sel.to) {
        const ms = parsed.filter((l) => l.m && l.m.unit === sel.unit && l.m.to === name);
        if (ms.length === 1 && ms[0].m.target === null) { playText(ms[0].text); return; }
        if (ms.length > 0) { sel = { ...sel, to: name }; say('click a target to attack, or the square again to stay there'); draw(); return; }
      }
      if (unitHere && parsed.some((l) => l.m && l.m.unit === unitHere.id)) { sel = { from: name, unit: unitHere.id }; say(''); draw(); return; }
      if (sel) { const text = `${sel.unit}@${name}`; sel = null; send({ type: 'move', text }); return; }
      say(unitHere ? `unit ${unitHere.id} cannot act now` : 'select one of your units that has not acted (ringed)');
      return;
    }
    default:
      say('choose a move in the list');
  }
}
window.yomiClick = clickCell;

// ---- analysis -----------------------------------------------------------------------

function onAnalysis(m) {
  if (!S || m.id !== S.id || m.ply !== S.ply) return;
  analysis = m;
  const total = m.moves.reduce((a, x) => a + x.visits, 0) || 1;
  heat = new Map();
  for (const x of m.moves) {
    const p = parseMove(S.view.style, S.view, x.text);
    if (!p || !p.to) continue;
    const key = S.view.style === 'connect4' ? lowestEmpty(p.to) : p.to;
    const prev = heat.get(key);
    const share = x.visits / total;
    if (!prev || prev.visits < x.visits) heat.set(key, { visits: x.visits, value: x.value, share });
  }
  const rows = [...m.moves].sort((a, b) => b.visits - a.visits).slice(0, 12)
    .map((x) => `<tr><td>${esc(x.text)}</td><td>${x.visits}</td><td>${x.value == null ? '' : (100 * x.value).toFixed(1) + '%'}</td></tr>`).join('');
  $('analysis').innerHTML = `<div id="an-status">${m.done ? 'done' : 'searching…'} ${m.iterations} iterations, value ${m.value == null ? '?' : (100 * m.value).toFixed(1) + '%'} for ${esc(S.players[m.player])}</div>` +
    `<div id="pv">PV: ${esc(m.pv.join(' '))}</div><table id="an-table"><tr><th>move</th><th>visits</th><th>value</th></tr>${rows}</table>`;
  draw();
}
function lowestEmpty(col) {
  const v = S.view;
  const c = v.names.indexOf(col) % v.width;
  for (let r = v.height - 1; r >= 0; r--) if (!v.cells[r * v.width + c]) return v.names[r * v.width + c];
  return col;
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

// ---- watching a records file ------------------------------------------------------------

function onStandings(m) {
  const rows = m.rows.map((r, i) => `<tr><td>${i + 1}</td><td>${esc(r.agent)}</td><td>${r.games}</td><td>${r.wdl.join('/')}</td><td>${(100 * r.score[0]).toFixed(1)}%</td><td>${r.elo[0].toFixed(0)}</td></tr>`).join('');
  const recent = m.recent.slice().reverse().map((g) => `<li><a href="#" data-index="${g.index}">#${g.index}</a> ${esc(g.seats.join(' vs '))}: ${g.returns.join(' : ')} (${g.moves} moves)</li>`).join('');
  $('standings').innerHTML = `<div id="standings-head">${esc(m.file)}: ${m.games} games of ${esc(m.game)}</div>` +
    `<table class="standings" id="standings-table"><tr><th>#</th><th>agent</th><th>games</th><th>W/D/L</th><th>score</th><th>Elo</th></tr>${rows}</table><ul id="recent">${recent}</ul>`;
  for (const a of $('standings').querySelectorAll('a[data-index]')) {
    a.onclick = (e) => { e.preventDefault(); send({ type: 'replay', file: m.file, index: +a.dataset.index }); };
  }
}

async function loadRecords() {
  let list = [];
  try { list = await (await fetch('/api/records')).json(); } catch { list = []; }
  for (const id of ['rec-file', 'follow-file']) {
    const s = $(id);
    s.innerHTML = '';
    for (const f of list) {
      const o = document.createElement('option');
      o.value = f.file;
      o.textContent = `${f.file} (${f.games} games${f.game ? ', ' + f.game : ''})`;
      s.appendChild(o);
    }
  }
}

// ---- wiring ---------------------------------------------------------------------------

function setTab(t) {
  tab = t;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('on', b.dataset.tab === t);
  $('setup').hidden = t === 'replay';
  $('replay-panel').hidden = t !== 'replay';
  $('watch-panel').hidden = t !== 'watch';
  if (t === 'watch') $('delay').value = 300;
  if (t === 'play') $('delay').value = 0;
  if (t !== 'play') loadRecords();
  gameChanged();
}

// The ply asked for last (keys pressed faster than replies arrive step from it).
let wantPly = null;
function here() { return wantPly === null ? (S ? S.ply : 0) : wantPly; }
function seek(k) {
  if (!S) return;
  wantPly = Math.max(0, Math.min(S.moves.length, k));
  send({ type: 'seek', ply: wantPly });
}

window.addEventListener('DOMContentLoaded', () => {
  $('setup').addEventListener('submit', startGame);
  $('game').addEventListener('change', gameChanged);
  for (const b of document.querySelectorAll('nav button')) b.onclick = () => setTab(b.dataset.tab);
  $('rec-open').onclick = () => send({ type: 'replay', file: $('rec-file').value, index: +$('rec-index').value });
  $('rec-paste').onclick = () => {
    try { send({ type: 'replay', record: JSON.parse($('rec-text').value) }); } catch (e) { say('not a JSON record: ' + e.message); }
  };
  $('follow').onclick = () => send({ type: 'follow', file: $('follow-file').value });
  $('unfollow').onclick = () => send({ type: 'unfollow' });
  $('analyse').onclick = () => send({ type: 'analyse', agent: $('an-agent').value.trim() || 'mcts' });
  $('stop').onclick = () => send({ type: 'stop' });
  $('play-typed').onclick = () => { const t = $('typed').value.trim(); if (t) playText(t); };
  $('slider').oninput = () => seek(+$('slider').value);
  $('first').onclick = () => seek(0);
  $('prev').onclick = () => seek(here() - 1);
  $('next').onclick = () => seek(here() + 1);
  $('last').onclick = () => seek(S ? S.moves.length : 0);
  $('pause').onclick = () => S && send({ type: 'pause', paused: !S.paused });
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA' || !S) return;
    if (e.key === 'ArrowLeft') { seek(here() - 1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { seek(here() + 1); e.preventDefault(); }
    if (e.key === 'Home') seek(0);
    if (e.key === 'End') seek(S.moves.length);
  });
  const q = new URLSearchParams(location.search);
  if (q.get('game')) $('game').value = q.get('game');
  loadGames();
  connect();
});
