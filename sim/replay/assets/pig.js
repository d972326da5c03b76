const B = DATA.board;
const W = 760, H = 300;
let layer = null;
function setup() {
  const svg = document.getElementById('board');
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('width', W * 0.8);
  svg.setAttribute('height', H * 0.8);
  layer = el('g', {id: 'pieces'}, svg);
  document.getElementById('info').innerHTML = '<h2>Players</h2><table id="seats"></table>';
}
function render(s) {
  layer.textContent = '';
  el('text', {x: 10, y: 18, 'font-size': 14, 'font-weight': 'bold'}, layer, 'Round ' + s.turn + ' \u2014 race to ' + B.goal);
  const left = 120, width = 600, x = v => left + (Math.min(v, B.goal) / B.goal) * width;
  el('line', {x1: x(B.goal), x2: x(B.goal), y1: 30, y2: 40 + 50 * s.score.length, stroke: '#b00', 'stroke-dasharray': '5,3'}, layer);
  s.score.forEach((v, p) => {
    const y = 40 + 50 * p, g = el('g', {class: 'seat', 'data-seat': p, 'data-score': v}, layer);
    el('text', {x: 10, y: y + 20, 'font-size': 12}, g, seatLabel(p));
    el('rect', {x: left, y: y, width: x(v) - left, height: 28, fill: SEAT_COLOURS[p]}, g);
    if (p === s.mover && !s.over && s.total > 0)
      el('rect', {x: x(v), y: y, width: x(v + s.total) - x(v), height: 28, fill: SEAT_COLOURS[p], opacity: 0.35}, g);
    el('text', {x: x(v) + 4, y: y + 19, 'font-size': 12}, g, String(v) + (p === s.mover && s.total ? ' + ' + s.total : ''));
  });
  const seats = document.getElementById('seats');
  seats.innerHTML = '<tr><th>player</th><th>score</th><th>turn total</th></tr>';
  s.score.forEach((v, p) => {
    const tr = h('tr', {class: 'seat', 'data-seat': p}, seats);
    const td = h('td', {}, tr); swatch(p, td); td.appendChild(document.createTextNode(seatLabel(p) + (p === s.mover && !s.over ? ' \u25c0' : '')));
    h('td', {}, tr, String(v));
    h('td', {}, tr, p === s.mover && !s.over ? String(s.total) : '');
  });
}
