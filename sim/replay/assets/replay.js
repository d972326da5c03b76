'use strict';
const DATA = JSON.parse(document.getElementById('replay-data').textContent);
const SEAT_COLOURS = DATA.colours;
const STATES = [];
(function build() {
  let current = {};
  for (const delta of DATA.deltas) { current = Object.assign({}, current, delta); STATES.push(current); }
})();
const NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, parent, text) {
  const node = document.createElementNS(NS, tag);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function h(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
function seatLabel(p) { return p >= 0 && p < DATA.seats.length ? DATA.seats[p] : 'nobody'; }
function swatch(p, parent) { h('span', {class: 'swatch', style: 'background:' + SEAT_COLOURS[p]}, parent); }
let step = 0;
function stepFromHash() {
  const m = /step=(\d+)/.exec(window.location.hash);
  return m ? Math.min(parseInt(m[1], 10), STATES.length - 1) : 0;
}
function panel(i) {
  const box = document.getElementById('panel-list');
  box.textContent = '';
  let shown = 0;
  for (let k = DATA.panel.length - 1; k >= 0; k--) {
    const entry = DATA.panel[k];
    if (entry.step > i) continue;
    const div = h('div', {class: 'entry' + (entry.step === i ? ' now' : ''), 'data-step': entry.step}, box);
    h('b', {}, div, 'T' + DATA.steps[entry.step].turn + ' ' + entry.kind + ': ');
    h('span', {}, div, entry.text);
    if (entry.dice && entry.dice.length) h('div', {class: 'dice'}, div, 'dice: ' + entry.dice.join(' '));
    div.addEventListener('click', () => show(entry.step));
    if (++shown >= 80) break;
  }
  if (!shown) h('div', {}, box, 'none yet');
}
function show(i) {
  step = Math.max(0, Math.min(i, STATES.length - 1));
  const s = STATES[step], info = DATA.steps[step];
  document.body.setAttribute('data-step', step);
  document.getElementById('slider').value = step;
  document.getElementById('where').textContent =
    'step ' + step + ' / ' + (STATES.length - 1) + ' \u00b7 turn ' + info.turn + ' \u00b7 decision ' + s.decisions;
  document.getElementById('narration').textContent = info.text;
  render(s, step);
  panel(step);
  if (window.history && window.history.replaceState) window.history.replaceState(null, '', '#step=' + step);
}
let timer = null;
function play() {
  const button = document.getElementById('play');
  if (timer) { clearInterval(timer); timer = null; button.textContent = '\u25b6 play'; return; }
  button.textContent = 'pause';
  timer = setInterval(() => { if (step >= STATES.length - 1) play(); else show(step + 1); }, 350);
}
function nextTurn(direction) {
  const turn = DATA.steps[step].turn;
  let i = step;
  while (i + direction >= 0 && i + direction < STATES.length && DATA.steps[i + direction].turn === turn) i += direction;
  i += direction;
  if (direction < 0 && i >= 0) { const t = DATA.steps[i].turn; while (i > 0 && DATA.steps[i - 1].turn === t) i--; }
  show(Math.max(0, Math.min(i, STATES.length - 1)));
}
function nextDecision(direction) {
  // the next step at which a player has taken another decision (the engine's decision count)
  let i = step + direction;
  const now = STATES[step].decisions;
  while (i > 0 && i < STATES.length - 1 && STATES[i].decisions === now) i += direction;
  if (direction < 0) { const d = STATES[Math.max(i, 0)].decisions; while (i > 0 && STATES[i - 1].decisions === d) i--; }
  show(Math.max(0, Math.min(i, STATES.length - 1)));
}
window.addEventListener('DOMContentLoaded', () => {
  const slider = document.getElementById('slider');
  slider.max = STATES.length - 1;
  slider.addEventListener('input', () => show(parseInt(slider.value, 10)));
  document.getElementById('first').addEventListener('click', () => show(0));
  document.getElementById('prev-turn').addEventListener('click', () => nextTurn(-1));
  document.getElementById('prev').addEventListener('click', () => show(step - 1));
  document.getElementById('next').addEventListener('click', () => show(step + 1));
  document.getElementById('next-turn').addEventListener('click', () => nextTurn(1));
  document.getElementById('prev-decision').addEventListener('click', () => nextDecision(-1));
  document.getElementById('next-decision').addEventListener('click', () => nextDecision(1));
  document.getElementById('last').addEventListener('click', () => show(STATES.length - 1));
  document.getElementById('play').addEventListener('click', play);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowRight') show(step + 1);
    if (e.key === 'ArrowLeft') show(step - 1);
  });
  window.addEventListener('hashchange', () => { const i = stepFromHash(); if (i !== step) show(i); });
  setup();
  show(stepFromHash());
});
window.addEventListener('error', (e) => {
  document.getElementById('errors').textContent += 'error: ' + e.message + '\n';
});
