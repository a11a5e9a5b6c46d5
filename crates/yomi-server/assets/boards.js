// SVG renderers, one per view style, and the mapping from clicks to moves.
// Every cell is a <g class="cell" data-cell=i data-name=NAME>; legal targets get class
// "legal"; the selected piece "sel". Pieces carry data-piece with the view's code.

const NS = 'http://www.w3.org/2000/svg';

export function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function text(parent, x, y, s, attrs = {}) {
  const t = el('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', ...attrs }, parent);
  t.textContent = s;
  return t;
}

// ---- move texts → cells -------------------------------------------------------------

// For each style: parse a legal move text into {from, to, extra} cell names (null when
// the move is not a board move, like "pass" or "end").
export function parseMove(style, view, t) {
  const s = t.trim();
  switch (style) {
    case 'tictactoe': case 'othello': case 'go':
      return /^pass$/i.test(s) ? null : { to: s };
    case 'connect4':
      return { to: s, column: true };
    case 'breakthrough': {
      const m = /^([a-z]\d+)[-x]([a-z]\d+)$/i.exec(s);
      return m ? { from: m[1], to: m[2] } : null;
    }
    case 'geister': {
      const m = /^(\d)(\d)([NESW])$/.exec(s);
      if (!m) return null;
      const x = +m[1], y = +m[2];
      const d = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] }[m[3]];
      const tx = x + d[0], ty = y + d[1];
      const off = tx < 0 || ty < 0 || tx >= view.width || ty >= view.height;
      return { from: `${x}${y}`, to: off ? `exit:${x}${y}${m[3]}` : `${tx}${ty}` };
    }
    case 'tubstap': {
      const m = /^(\d+)@(\d+),(\d+)(?:x(\d+))?$/.exec(s);
      if (!m) return null;
      const u = view.units.find((u) => u.id === +m[1]);
      return u ? { from: `${u.x},${u.y}`, unit: +m[1], to: `${m[2]},${m[3]}`, target: m[4] === undefined ? null : +m[4] } : null;
    }
    case 'gdl-grid': {
      // The cells named in the move, in order: one (a placement) or two (from, to).
      const atoms = s.replace(/[()]/g, ' ').trim().split(/\s+/);
      const found = [];
      for (let k = 1; k + 1 < atoms.length; k++) {
        const n = `${atoms[k]} ${atoms[k + 1]}`;
        if (view.names.includes(n)) { found.push(n); k++; }
      }
      if (found.length === 1) return { to: found[0] };
      if (found.length >= 2) return { from: found[0], to: found[1] };
      return null;
    }
    default: return null;
  }
}

// ---- drawing ---------------------------------------------------------------------

const COLOURS = {
  terrain: { plain: '#cfe8a9', sea: '#7fb3e0', forest: '#5f9e54', mountain: '#a38d6d', road: '#d9d2c0', fortress: '#b9a0c9', 'no entry': '#444' },
};

function frame(view, size, pad) {
  const w = view.width * size + 2 * pad, h = view.height * size + 2 * pad;
  const svg = el('svg', { viewBox: `0 0 ${w} ${h}`, width: w, height: h, id: 'board-svg', 'data-style': view.style });
  return svg;
}

function labels(svg, view, size, pad, centred = true) {
  view.col_labels.forEach((l, c) => text(svg, pad + c * size + size / 2, pad / 2, l, { class: 'label', 'font-size': 12, fill: '#555' }));
  view.row_labels.forEach((l, r) => text(svg, pad / 2, pad + r * size + size / 2, l, { class: 'label', 'font-size': 12, fill: '#555' }));
}

// ctx: { legalTargets: Set(names), selected: name|null, heat: Map(name -> {visits, value, share}),
//        marks: Set(index), lastTo: name|null }
export function render(view, ctx) {
  switch (view.style) {
    case 'go': return drawGo(view, ctx);
    case 'tubstap': return drawTubstap(view, ctx);
    case 'gdl-facts': case 'text': return null;
    default: return drawGrid(view, ctx);
  }
}

function heatRect(g, x, y, size, h) {
  if (!h) return;
  el('rect', { x: x + 1, y: y + 1, width: size - 2, height: size - 2, fill: `rgba(230,60,30,${0.15 + 0.6 * h.share})`, class: 'heat' }, g);
  const label = `${h.visits}` + (h.value == null ? '' : ` ${(100 * h.value).toFixed(0)}%`);
  text(g, x + size / 2, y + size - 8, label, { 'font-size': 10, fill: '#000', class: 'heat-label' });
}

function drawGrid(view, ctx) {
  const size = view.style === 'gdl-grid' ? 56 : 52, pad = 24;
  const svg = frame(view, size, pad);
  const bg = { tictactoe: '#fff', connect4: '#1f4fa8', breakthrough: '#e8d6b0', othello: '#1d7a3a', geister: '#e9e4d8', 'gdl-grid': '#fff' }[view.style] || '#fff';
  el('rect', { x: pad, y: pad, width: view.width * size, height: view.height * size, fill: bg, stroke: '#333' }, svg);
  labels(svg, view, size, pad);
  view.cells.forEach((piece, i) => {
    const c = i % view.width, r = Math.floor(i / view.width);
    const x = pad + c * size, y = pad + r * size, cx = x + size / 2, cy = y + size / 2;
    const name = view.names[i];
    const g = el('g', { class: 'cell', 'data-cell': i, 'data-name': name }, svg);
    let fill = 'transparent';
    if (view.style === 'breakthrough' && (r + c) % 2 === 1) fill = '#c8a97a';
    if (view.style === 'geister' && ((c === 0 || c === view.width - 1) && (r === 0 || r === view.height - 1))) fill = '#d8cfb8';
    el('rect', { x, y, width: size, height: size, fill, stroke: view.style === 'connect4' ? 'none' : '#0003' }, g);
    const legal = ctx.legalTargets.has(name);
    if (legal) g.classList.add('legal');
    if (ctx.selected === name) {
      g.classList.add('sel');
      el('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: 'none', stroke: '#e0a000', 'stroke-width': 4 }, g);
    }
    heatRect(g, x, y, size, ctx.heat.get(name));
    drawPiece(view.style, g, cx, cy, size, piece);
    if (legal) {
      if (view.style === 'othello' || !piece) el('circle', { cx, cy, r: size * 0.12, fill: view.style === 'othello' ? '#0008' : '#2a8', class: 'legal-dot' }, g);
      else el('circle', { cx, cy, r: size * 0.45, fill: 'none', stroke: '#2a8', 'stroke-width': 3, class: 'legal-ring' }, g);
    }
    if (ctx.lastTo === name) el('circle', { cx: x + 7, cy: y + 7, r: 3, fill: '#e33', class: 'last' }, g);
  });
  // Geister escapes: clickable exits outside the board.
  if (view.style === 'geister') {
    for (const t of ctx.legalTargets) {
      if (!t.startsWith('exit:')) continue;
      const m = /^exit:(\d)(\d)([NESW])$/.exec(t);
      const x = +m[1], y = +m[2];
      const d = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] }[m[3]];
      const cx = pad + x * size + size / 2 + d[0] * size * 0.62, cy = pad + y * size + size / 2 + d[1] * size * 0.62;
      const g = el('g', { class: 'cell legal exit', 'data-name': t }, svg);
      el('circle', { cx, cy, r: 10, fill: '#2a8' }, g);
      text(g, cx, cy, '⇧', { 'font-size': 12, fill: '#fff' });
    }
  }
  return svg;
}

function drawPiece(style, g, cx, cy, size, p) {
  if (!p) return;
  const attrs = { class: 'piece', 'data-piece': p };
  switch (style) {
    case 'tictactoe':
      text(g, cx, cy, p === 'x' ? '✕' : '◯', { ...attrs, 'font-size': size * 0.6, fill: p === 'x' ? '#b22' : '#226' });
      break;
    case 'connect4':
      el('circle', { ...attrs, cx, cy, r: size * 0.4, fill: p === 'x' ? '#e33' : '#fd3' }, g);
      break;
    case 'othello': case 'breakthrough': case 'go':
      el('circle', { ...attrs, cx, cy, r: size * 0.4, fill: p === 'b' ? '#111' : '#fafafa', stroke: '#000', 'stroke-width': 1 }, g);
      break;
    case 'geister': {
      // Own ghosts show their colour; unknown ones are grey. Player 0's ghosts point up.
      const colour = { B: '#2457c5', R: '#c52424', b: '#2457c5', r: '#c52424', U: '#888', u: '#888', X: '#666', x: '#666' }[p];
      const up = p === p.toUpperCase();
      const h = size * 0.38;
      const pts = up ? `${cx},${cy - h} ${cx + h},${cy + h} ${cx - h},${cy + h}` : `${cx},${cy + h} ${cx + h},${cy - h} ${cx - h},${cy - h}`;
      el('polygon', { ...attrs, points: pts, fill: colour, stroke: up ? '#000' : '#fff', 'stroke-width': 2 }, g);
      break;
    }
    default: {
      // GDL contents: up to two words, one per line.
      const words = p.split(' ').slice(0, 2);
      words.forEach((w, k) => text(g, cx, cy + (k - (words.length - 1) / 2) * 15, w.slice(0, 8), { ...attrs, 'font-size': 12 }));
    }
  }
}

function drawGo(view, ctx) {
  const n = view.width, size = Math.max(24, Math.min(44, Math.floor(560 / n))), pad = 26;
  const svg = frame(view, size, pad);
  el('rect', { x: 0, y: 0, width: n * size + 2 * pad, height: n * size + 2 * pad, fill: '#dcb35c' }, svg);
  labels(svg, view, size, pad);
  for (let i = 0; i < n; i++) {
    const a = pad + size / 2 + i * size;
    el('line', { x1: pad + size / 2, y1: a, x2: pad + size / 2 + (n - 1) * size, y2: a, stroke: '#000' }, svg);
    el('line', { x1: a, y1: pad + size / 2, x2: a, y2: pad + size / 2 + (n - 1) * size, stroke: '#000' }, svg);
  }
  const stars = n >= 13 ? [3, n >> 1, n - 4] : n >= 9 ? [2, n >> 1, n - 3] : [];
  for (const r of stars) for (const c of stars) el('circle', { cx: pad + size / 2 + c * size, cy: pad + size / 2 + r * size, r: 3, fill: '#000' }, svg);
  view.cells.forEach((p, i) => {
    const c = i % n, r = Math.floor(i / n);
    const x = pad + c * size, y = pad + r * size, cx = x + size / 2, cy = y + size / 2;
    const name = view.names[i];
    const g = el('g', { class: 'cell', 'data-cell': i, 'data-name': name }, svg);
    el('rect', { x, y, width: size, height: size, fill: 'transparent' }, g);
    heatRect(g, x, y, size, ctx.heat.get(name));
    if (p) {
      el('circle', { class: 'piece', 'data-piece': p, cx, cy, r: size * 0.46, fill: p === 'b' ? '#111' : '#fafafa', stroke: '#000' }, g);
      if (ctx.marks.has(i)) {
        el('path', { class: 'dead', d: `M${cx - 6},${cy - 6}L${cx + 6},${cy + 6}M${cx + 6},${cy - 6}L${cx - 6},${cy + 6}`, stroke: '#e22', 'stroke-width': 3 }, g);
      }
    }
    if (ctx.legalTargets.has(name)) g.classList.add('legal');
    if (ctx.lastTo === name) el('circle', { cx, cy, r: 4, fill: '#e33', class: 'last' }, g);
  });
  return svg;
}

function drawTubstap(view, ctx) {
  const size = 56, pad = 24;
  const svg = frame(view, size, pad);
  labels(svg, view, size, pad);
  view.terrain.forEach((t, i) => {
    const c = i % view.width, r = Math.floor(i / view.width);
    const x = pad + c * size, y = pad + r * size;
    const name = view.names[i];
    const g = el('g', { class: 'cell', 'data-cell': i, 'data-name': name, 'data-terrain': t }, svg);
    el('rect', { x, y, width: size, height: size, fill: COLOURS.terrain[t] || '#ccc', stroke: '#0004' }, g);
    if (t === 'forest') text(g, x + 10, y + 10, '♣', { 'font-size': 10, fill: '#234' });
    if (t === 'mountain') text(g, x + 10, y + 10, '▲', { 'font-size': 10, fill: '#543' });
    if (t === 'fortress') text(g, x + 10, y + 10, '⌂', { 'font-size': 12, fill: '#426' });
    heatRect(g, x, y, size, ctx.heat.get(name));
    if (ctx.legalTargets.has(name)) {
      g.classList.add('legal');
      el('rect', { x: x + 3, y: y + 3, width: size - 6, height: size - 6, fill: '#fff6', stroke: '#2a8', 'stroke-width': 3, class: 'legal-ring' }, g);
    }
    if (ctx.selected === name) el('rect', { x: x + 2, y: y + 2, width: size - 4, height: size - 4, fill: 'none', stroke: '#e0a000', 'stroke-width': 4 }, g);
  });
  for (const u of view.units) {
    if (u.hp === 0) continue;
    const cx = pad + (u.x - 1) * size + size / 2, cy = pad + (u.y - 1) * size + size / 2;
    const g = el('g', { class: 'unit' + (u.done ? ' done' : '') + (ctx.targets && ctx.targets.has(u.id) ? ' target' : ''), 'data-unit': u.id, 'pointer-events': 'none' }, svg);
    el('circle', { cx, cy, r: size * 0.36, fill: u.team === 0 ? '#d33' : '#36c', stroke: ctx.targets && ctx.targets.has(u.id) ? '#ff0' : '#000', 'stroke-width': ctx.targets && ctx.targets.has(u.id) ? 4 : 1, opacity: u.done ? 0.5 : 1 }, g);
    text(g, cx, cy - 4, u.kind, { 'font-size': 15, fill: '#fff', 'font-weight': 700 });
    text(g, cx, cy + 11, `${u.hp}`, { 'font-size': 11, fill: '#fff', class: 'hp' });
    text(g, cx + size * 0.36, cy - size * 0.36, `${u.id}`, { 'font-size': 9, fill: '#000' });
  }
  return svg;
}
