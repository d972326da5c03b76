const B = DATA.board, K = DATA.const;
const SCALE = 34, PAD = 1.6;
const xs = B.districts.map(d => d.x), ys = B.districts.map(d => d.y);
const X0 = Math.min(...xs) - PAD, Y1 = Math.max(...ys) + PAD;
const WIDTH = (Math.max(...xs) - X0 + PAD) * SCALE, HEIGHT = (Y1 - Math.min(...ys) + PAD) * SCALE;
function px(x) { return (x - X0) * SCALE; }
function py(y) { return (Y1 - y) * SCALE; }
const BAND = {white: '#f7f7f2', grey: '#c4c4c4', black: '#3a3a3a'};
const INK = {white: '#222', grey: '#111', black: '#fff'};
const SPECIAL = {police: '#1f4fbf', subway: '#2e8b57', heliport: '#d2691e'};
let layer = null;
function setup() {
  const svg = document.getElementById('board');
  svg.setAttribute('viewBox', '0 0 ' + WIDTH + ' ' + HEIGHT);
  svg.setAttribute('width', WIDTH * 0.8);
  svg.setAttribute('height', HEIGHT * 0.8);
  for (const park of B.parks)
    el('polygon', {points: park.points.map(p => px(p[0]) + ',' + py(p[1])).join(' '), fill: '#9fd19a', stroke: '#5a9a55'}, svg);
  for (const river of B.rivers)
    el('polyline', {points: river.points.map(p => px(p[0]) + ',' + py(p[1])).join(' '), fill: 'none', stroke: '#3b8fd6', 'stroke-width': 8, opacity: 0.5}, svg);
  for (const [a, b] of B.edges) {
    const da = B.districts[a], db = B.districts[b];
    const across = da.peripheral || db.peripheral;
    el('line', {x1: px(da.x), y1: py(da.y), x2: px(db.x), y2: py(db.y), stroke: across ? '#8a6d3b' : '#666',
                'stroke-width': 2, 'stroke-dasharray': across ? '6,4' : ''}, svg);
  }
  B.districts.forEach((d, i) => {
    const g = el('g', {class: 'district', 'data-district': i}, svg);
    const fill = BAND[d.band] || '#e8dcc0', stroke = SPECIAL[d.special] || '#333';
    if (d.peripheral) el('rect', {x: px(d.x) - 24, y: py(d.y) - 24, width: 48, height: 48, fill: fill, stroke: stroke, 'stroke-width': 2}, g);
    else el('circle', {cx: px(d.x), cy: py(d.y), r: 24, fill: fill, stroke: stroke, 'stroke-width': d.special ? 4 : 1.5}, g);
    el('text', {x: px(d.x), y: py(d.y) - 27, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 'bold', fill: '#222'}, g, d.name);
    if (d.special) el('text', {x: px(d.x), y: py(d.y) + 35, 'text-anchor': 'middle', 'font-size': 8, fill: SPECIAL[d.special]}, g, d.special.toUpperCase());
  });
  layer = el('g', {id: 'pieces'}, svg);
  const info = document.getElementById('info');
  info.innerHTML = '<h2>Families</h2><table id="seats"></table><h2>Missions on offer</h2><ul id="offer"></ul>' +
    '<h2>Missions held</h2><ul id="held"></ul><h2>Custody</h2><ul id="custody"></ul><h2>Waiting at the edges</h2><ul id="periph"></ul>';
}
function charLabel(c) { return B.characters[c].short; }
function charName(c) { return B.characters[c].name + ' (' + B.characters[c].value + ')'; }
function district(d) { return d >= 0 && d < B.districts.length ? B.districts[d].name : '?'; }
function render(s) {
  layer.textContent = '';
  // missions on offer: a gold ring on the acceptance district, its slot number
  s.row.slice(0, B.row).forEach((m, slot) => {
    if (m < 0) return;
    const d = B.districts[s.m_accept[m]];
    if (!d) return;
    el('circle', {class: 'offer-mark', 'data-mission': m, 'data-district': s.m_accept[m], cx: px(d.x), cy: py(d.y), r: 28, fill: 'none', stroke: '#e0a800', 'stroke-width': 3, 'stroke-dasharray': '4,3'}, layer);
    el('text', {x: px(d.x) + 22, y: py(d.y) - 16, 'font-size': 10, fill: '#a07800', 'font-weight': 'bold'}, layer, 'M' + (slot + 1));
  });
  // characters on the board, grouped by district
  const at = {};
  s.owner.forEach((p, c) => { if (s.where[c] === K.W_CONTROLLED && s.loc[c] >= 0) (at[s.loc[c]] = at[s.loc[c]] || []).push(c); });
  s.periph.forEach((c) => { if (c >= 0 && s.where[c] === K.W_PERIPHERAL && s.loc[c] >= 0) (at[s.loc[c]] = at[s.loc[c]] || []).push(c); });
  for (const d in at) {
    const dd = B.districts[d], n = at[d].length;
    at[d].forEach((c, k) => {
      const angle = (2 * Math.PI * k) / Math.max(n, 1) - Math.PI / 2, r = n > 1 ? Math.min(22, 8 + 2.5 * n) : 0;
      const x = px(dd.x) + r * Math.cos(angle), y = py(dd.y) + r * Math.sin(angle);
      const p = s.owner[c], mine = p >= 0;
      const g = el('g', {class: 'piece', 'data-char': c, 'data-seat': p, 'data-district': d}, layer);
      el('circle', {cx: x, cy: y, r: c < K.N_AFFRANCHI ? 10 : 8, fill: mine ? SEAT_COLOURS[p] : '#888', stroke: s.mission[c] >= 0 ? '#e0a800' : '#fff', 'stroke-width': s.mission[c] >= 0 ? 3 : 1}, g);
      el('text', {x: x, y: y + 3.5, 'text-anchor': 'middle', 'font-size': 9, fill: '#fff', 'font-weight': 'bold'}, g, charLabel(c));
      el('title', {}, g, charName(c) + (mine ? ' \u2014 ' + seatLabel(p) : ' \u2014 waiting to be recruited'));
    });
  }
  // police cars: blue squares beside their district
  const cars = {};
  s.police.forEach((d, k) => {
    if (d < 0) return;
    const n = cars[d] = (cars[d] || 0) + 1, dd = B.districts[d];
    const x = px(dd.x) - 34 + 11 * (n - 1), y = py(dd.y) + 14;
    const g = el('g', {class: 'police', 'data-car': k, 'data-district': d}, layer);
    el('rect', {x: x, y: y, width: 10, height: 10, fill: '#1f4fbf', stroke: '#fff'}, g);
    el('text', {x: x + 5, y: y + 8, 'text-anchor': 'middle', 'font-size': 8, fill: '#fff'}, g, 'P');
  });
  // families
  const seats = document.getElementById('seats');
  seats.innerHTML = '<tr><th>family</th><th>money</th><th>cards</th><th>characters</th></tr>';
  s.money.forEach((money, p) => {
    const tr = h('tr', {class: 'seat' + (s.alive[p] ? '' : ' out'), 'data-seat': p, 'data-money': money, 'data-hand': s.hand[p], 'data-alive': s.alive[p]}, seats);
    const td = h('td', {}, tr); swatch(p, td); td.appendChild(document.createTextNode(seatLabel(p) + (s.first === p ? ' \u2605' : '')));
    h('td', {}, tr, '$' + money.toLocaleString('en-US'));
    h('td', {}, tr, String(s.hand[p]));
    const crew = [];
    s.owner.forEach((q, c) => { if (q === p && (s.where[c] === K.W_CONTROLLED || s.where[c] === K.W_CUSTODY)) crew.push(charLabel(c) + '@' + (s.where[c] === K.W_CUSTODY ? 'cell ' + s.cell[c] : district(s.loc[c]))); });
    h('td', {}, tr, crew.join(', '));
  });
  const offer = document.getElementById('offer'); offer.textContent = '';
  s.row.slice(0, B.row).forEach((m, slot) => {
    if (m < 0) { h('li', {}, offer, 'M' + (slot + 1) + ': empty'); return; }
    const mm = B.missions[m], dest = s.m_dest[m] >= 0 ? district(s.m_dest[m]) : '? (drawn on acceptance)';
    h('li', {class: 'offer', 'data-mission': m, 'data-accept': s.m_accept[m], 'data-dest': s.m_dest[m]}, offer,
      'M' + (slot + 1) + ': ' + mm.name + ' ($' + mm.reward.toLocaleString('en-US') + ', crew ' + mm.crew + (mm.risk ? ', at risk' : '') + ') ' + district(s.m_accept[m]) + ' \u2192 ' + dest);
  });
  const held = document.getElementById('held'); held.textContent = '';
  s.m_state.forEach((st, m) => {
    if (st !== K.MS_HELD) return;
    const li = h('li', {class: 'held', 'data-mission': m, 'data-seat': s.m_holder[m]}, held);
    swatch(s.m_holder[m], li);
    li.appendChild(document.createTextNode(B.missions[m].name + ' \u2192 ' + district(s.m_dest[m]) + ' (' + seatLabel(s.m_holder[m]) + ')'));
  });
  if (!held.childNodes.length) h('li', {}, held, 'none');
  const custody = document.getElementById('custody'); custody.textContent = '';
  for (let cell = 1; cell <= B.cells; cell++) {
    const inside = [];
    s.where.forEach((w, c) => { if (w === K.W_CUSTODY && s.cell[c] === cell) inside.push(c); });
    const li = h('li', {class: 'cell', 'data-cell': cell, 'data-chars': inside.join(',')}, custody, 'cell ' + cell + ': ');
    if (!inside.length) li.appendChild(document.createTextNode('empty'));
    inside.forEach(c => { swatch(s.owner[c], li); li.appendChild(document.createTextNode(charName(c) + ' ')); });
  }
  const periph = document.getElementById('periph'); periph.textContent = '';
  s.periph.forEach((c) => { if (c >= 0) h('li', {}, periph, charName(c) + ' at ' + district(s.loc[c])); });
  if (!periph.childNodes.length) h('li', {}, periph, 'none');
}
