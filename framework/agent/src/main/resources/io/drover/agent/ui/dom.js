// Small DOM helpers. Text always goes in as text nodes (never innerHTML), so no data can become markup.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Unix nanoseconds (or an ISO string) as local date and time with milliseconds. */
export function fmtTime(t) {
  if (t === null || t === undefined || t === '' || t === 0) return '–';
  const ms = typeof t === 'number' ? t / 1e6 : Date.parse(t);
  const d = new Date(ms);
  const p = (n, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:`
    + `${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** A duration in nanoseconds, short: 850ms, 2.5s, 3m10s. */
export function fmtDur(ns) {
  const ms = ns / 1e6;
  if (Math.abs(ms) < 1000) return `${Math.round(ms)}ms`;
  const sec = ms / 1000;
  if (Math.abs(sec) < 60) return `${+sec.toFixed(sec < 10 ? 2 : 1)}s`;
  const m = Math.floor(sec / 60);
  return `${m}m${Math.round(sec - m * 60)}s`;
}

export function statusBadge(status) {
  return h('span', { class: `badge st-${String(status).replace(/[^a-z]/g, '')}` }, status);
}

export function link(href, text, attrs = {}) {
  return h('a', { href, 'data-link': true, ...attrs }, text);
}

/** A query string with %20 for spaces (the agent reads '+' literally, as it must for IDs and names). */
export function qs(params) {
  return Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
