const B = DATA.board;
const PIECES = ['boss', 'henchman', 'killer', 'occasional'];
const PIECE_MARK = ['B', 'H', 'K', 'O'];
const W = 760, SLOT_W = 126, SLOT_H = 118, PER_ROW = 6;
let layer = null;
function setup() {
  const svg = document.getElementById('board');
  svg.setAttribute('viewBox', '0 0 ' + W + ' 540');
  svg.setAttribute('width', W * 0.8);
  svg.setAttribute('height', 540 * 0.8);
  layer = el('g', {id: 'pieces'}, svg);
  const info = document.getElementById('info');
  info.innerHTML = '<h2>Families</h2><table id="seats"></table><h2>Titles</h2><ul id="titles"></ul>';
}
function cardName(id) { return id >= 0 ? B.cards[id].label + ' (' + B.cards[id].district + ', target ' + B.cards[id].target + ')' : 'the hospital'; }
function render(s) {
  layer.textContent = '';
  // the locations of this turn: the hospital (slot 0) and the cards shown
  el('text', {x: 10, y: 18, 'font-size': 14, 'font-weight': 'bold'}, layer, 'Turn ' + s.turn + ' \u2014 locations');
  s.shown.forEach((card, slot) => {
    const x = 10 + (slot % PER_ROW) * SLOT_W, y = 28 + Math.floor(slot / PER_ROW) * (SLOT_H + 8);
    const g = el('g', {class: 'slot', 'data-slot': slot, 'data-card': card}, layer);
    el('rect', {x: x, y: y, width: SLOT_W - 8, height: SLOT_H, rx: 6, fill: slot === 0 ? '#fde2e2' : '#fff8e1', stroke: '#886'}, g);
    el('text', {x: x + 6, y: y + 15, 'font-size': 11, 'font-weight': 'bold'}, g, slot === 0 ? 'Hospital' : B.cards[card].label);
    if (slot > 0) el('text', {x: x + 6, y: y + 29, 'font-size': 10, fill: '#555'}, g, B.cards[card].district + ' \u00b7 target ' + B.cards[card].target);
    let row = 0;
    s.at[slot].forEach((pieces, p) => {
      const total = pieces.reduce((a, b) => a + b, 0);
      if (!total) return;
      const yy = y + 42 + 18 * row++;
      let xx = x + 8;
      pieces.forEach((count, k) => {
        for (let j = 0; j < count; j++) {
          const d = el('g', {class: 'die', 'data-seat': p, 'data-piece': k, 'data-slot': slot}, g);
          el('rect', {x: xx, y: yy, width: 14, height: 14, rx: k === 0 ? 7 : 2, fill: SEAT_COLOURS[p], stroke: '#fff'}, d);
          el('text', {x: xx + 7, y: yy + 11, 'text-anchor': 'middle', 'font-size': 9, fill: '#fff', 'font-weight': 'bold'}, d, PIECE_MARK[k]);
          el('title', {}, d, seatLabel(p) + ': ' + PIECES[k]);
          xx += 16;
        }
      });
    });
  });
  // the renown ladder: one column per family, the Parrain line on top
  const top = 300, height = 220, left = 40, colW = 40, max = Math.max(B.parrain, ...s.renown) + 1;
  el('text', {x: 10, y: top - 8, 'font-size': 13, 'font-weight': 'bold'}, layer, 'Renown (Parrain at ' + B.parrain + ')');
  const ry = v => top + height - (v / max) * height;
  el('line', {x1: left - 10, x2: left + colW * s.renown.length, y1: ry(B.parrain), y2: ry(B.parrain), stroke: '#b00', 'stroke-dasharray': '5,3'}, layer);
  for (let v = 0; v <= max; v += 5) el('text', {x: left - 14, y: ry(v) + 4, 'font-size': 9, 'text-anchor': 'end', fill: '#666'}, layer, String(v));
  s.renown.forEach((r, p) => {
    const g = el('g', {class: 'renown', 'data-seat': p, 'data-renown': r}, layer);
    el('rect', {x: left + colW * p, y: ry(r), width: colW - 8, height: top + height - ry(r), fill: SEAT_COLOURS[p]}, g);
    el('text', {x: left + colW * p + (colW - 8) / 2, y: ry(r) - 3, 'text-anchor': 'middle', 'font-size': 10}, g, String(r));
  });
  // the FBI track
  const fx = 300, fw = 420;
  el('text', {x: fx, y: top - 8, 'font-size': 13, 'font-weight': 'bold'}, layer, 'FBI track');
  for (let v = 0; v <= B.fbi_max; v++) {
    const x = fx + (v * fw) / Math.max(B.fbi_max, 1);
    el('rect', {x: x - 9, y: top + 4, width: 18, height: 18, fill: v === B.fbi_informer ? '#333' : '#eee', stroke: '#999'}, layer);
    el('text', {x: x, y: top + 17, 'text-anchor': 'middle', 'font-size': 9, fill: v === B.fbi_informer ? '#fff' : '#333'}, layer, String(v));
  }
  const fbx = fx + (s.fbi * fw) / Math.max(B.fbi_max, 1);
  el('circle', {id: 'fbi', 'data-fbi': s.fbi, cx: fbx, cy: top + 36, r: 8, fill: '#1f4fbf'}, layer);
  el('text', {x: fbx, y: top + 58, 'text-anchor': 'middle', 'font-size': 10, fill: '#1f4fbf'}, layer, 'FBI ' + s.fbi);
  // families
  const seats = document.getElementById('seats');
  seats.innerHTML = '<tr><th>family</th><th>renown</th><th>bags</th><th>H/K/O</th><th>wounds</th><th>cards won</th><th>tokens</th></tr>';
  s.renown.forEach((r, p) => {
    const tr = h('tr', {class: 'seat', 'data-seat': p, 'data-renown': r, 'data-bags': s.bags[p]}, seats);
    const td = h('td', {}, tr); swatch(p, td); td.appendChild(document.createTextNode(seatLabel(p) + (s.godfather === p ? ' \u2605' : '')));
    h('td', {}, tr, String(r));
    h('td', {}, tr, String(s.bags[p]));
    h('td', {}, tr, s.henchmen[p] + '/' + s.killers[p] + '/' + s.occ[p]);
    h('td', {}, tr, String(s.wounds[p]));
    h('td', {}, tr, s.won[p].map((n, d) => n ? B.districts[d] + ' ' + n : '').filter(Boolean).join(', ') || '-');
    h('td', {}, tr, s.tokens[p].map((n, t) => n ? B.traffics[t] + ' ' + n : '').filter(Boolean).join(', ') || '-');
  });
  const titles = document.getElementById('titles'); titles.textContent = '';
  s.barons.forEach((p, t) => { const li = h('li', {class: 'title', 'data-title': 'baron-' + t, 'data-seat': p}, titles); if (p >= 0) swatch(p, li); li.appendChild(document.createTextNode('Baron of ' + B.traffics[t] + ': ' + seatLabel(p))); });
  s.caids.forEach((p, d) => { const li = h('li', {class: 'title', 'data-title': 'caid-' + d, 'data-seat': p}, titles); if (p >= 0) swatch(p, li); li.appendChild(document.createTextNode('Caid of ' + B.districts[d] + ': ' + seatLabel(p))); });
}
