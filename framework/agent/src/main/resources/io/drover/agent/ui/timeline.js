// The allocation timeline: one row per task in lifecycle order, each run a bar from Started to its end,
// coloured by how it ended; every event a marker whose message shows on hover; the kill_timeout window after
// Killing and the SIGKILL that ends it; restart delays. Zoom (wheel, buttons) and pan (drag). Pure SVG.
import { clear, fmtDur, fmtTime, h, s } from './dom.js';

const HOOK_ORDER = { prestart: 0, 'prestart-sidecar': 1, main: 2, poststart: 3, 'poststart-sidecar': 3, poststop: 4 };

/** Task names in lifecycle order (prestart, sidecars, main, poststart, poststop), then declaration order. */
export function lifecycleOrder(alloc, job) {
  const names = Object.keys(alloc.TaskStates || {});
  const hooks = {};
  const group = job && (job.TaskGroups || []).find((g) => g.Name === alloc.TaskGroup);
  for (const t of (group ? group.Tasks : [])) {
    const l = t.Lifecycle;
    hooks[t.Name] = !l ? 'main' : l.Sidecar ? `${l.Hook}-sidecar` : l.Hook;
  }
  return names.map((n, i) => ({ name: n, hook: hooks[n] || 'main', i }))
    .sort((a, b) => (HOOK_ORDER[a.hook] ?? 2) - (HOOK_ORDER[b.hook] ?? 2) || a.i - b.i);
}

function slug(type) {
  return type.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

function describe(e) {
  let text = `${e.Type}: ${e.DisplayMessage || e.Message || ''}`.trim();
  if (e.Type === 'Terminated' && !/Exit Code/.test(text)) text += ` (exit code ${e.ExitCode}, signal ${e.Signal})`;
  if (e.Type === 'Killing' && e.KillTimeout) text += ` (kill_timeout ${fmtDur(e.KillTimeout)})`;
  if (e.Type === 'Restarting' && e.StartDelay) text += ` (in ${fmtDur(e.StartDelay)})`;
  return text;
}

/** What the timeline draws, from an allocation's JSON: pure, so tests and renders agree. */
export function model(alloc, order, nowNs) {
  let t0 = Infinity;
  let t1 = -Infinity;
  for (const t of Object.values(alloc.TaskStates || {})) {
    for (const e of t.Events || []) { t0 = Math.min(t0, e.Time); t1 = Math.max(t1, e.Time); }
  }
  if (!isFinite(t0)) { t0 = alloc.CreateTime; t1 = alloc.CreateTime + 1e9; }
  const live = alloc.ClientStatus === 'running' || alloc.ClientStatus === 'pending';
  if (live) t1 = Math.max(t1, nowNs);
  const rows = order.map(({ name, hook }) => {
    const state = alloc.TaskStates[name];
    const runs = [];
    const windows = [];
    const markers = [];
    let run = null;
    let killing = null;
    for (const e of state.Events || []) {
      markers.push({ time: e.Time, type: e.Type, cls: slug(e.Type), label: describe(e) });
      if (e.Type === 'Started') {
        run = { start: e.Time, end: null, outcome: 'running', n: runs.length + 1 };
        runs.push(run);
        killing = null;
      } else if (e.Type === 'Killing') {
        killing = e;
        if (e.KillTimeout > 0) {
          windows.push({ start: e.Time, end: e.Time + e.KillTimeout, kind: 'kill',
            label: `kill_timeout window: ${fmtDur(e.KillTimeout)} after ${e.Details?.kill_signal || 'the kill signal'}` });
        }
      } else if (e.Type === 'Terminated' && run && run.end === null) {
        run.end = e.Time;
        run.exitCode = e.ExitCode;
        run.signal = e.Signal;
        if (e.Signal === 9 && killing) {
          const at = Math.min(killing.Time + (killing.KillTimeout || 0), e.Time);
          markers.push({ time: at, type: 'SIGKILL', cls: 'sigkill',
            label: `SIGKILL: sent after the kill_timeout of ${fmtDur(killing.KillTimeout || 0)} passed` });
        }
        run.outcome = e.Signal === 9 ? 'sigkill' : killing ? 'killed'
          : e.ExitCode === 0 && e.Signal === 0 ? 'ok' : 'failed';
        run = null;
      } else if (e.Type === 'Restarting' && e.StartDelay > 0) {
        windows.push({ start: e.Time, end: e.Time + e.StartDelay, kind: 'restart',
          label: `restart delay: ${fmtDur(e.StartDelay)}` });
      }
    }
    if (run && run.end === null) {
      run.end = state.State === 'running' ? t1 : (state.FinishedAt ? Date.parse(state.FinishedAt) * 1e6 : t1);
      run.outcome = state.State === 'running' ? 'running' : 'lost';
    }
    for (const w of windows) t1 = Math.max(t1, Math.min(w.end, live ? w.end : t1));
    return { name, hook, state: state.State, runs, windows, markers };
  });
  return { t0, t1: t1 > t0 ? t1 : t0 + 1e9, rows, live };
}

const LABEL = 170;
const ROW = 34;
const AXIS = 26;

function niceStep(spanNs) {
  const raw = spanNs / 8;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** A timeline widget bound to a container; update(alloc, order) redraws, keeping the zoom. */
export function timeline() {
  const holder = h('div', { class: 'timeline', id: 'timeline' });
  const tip = h('div', { class: 'tip', id: 'timeline-tip' });
  const legend = h('div', { class: 'legend' },
    [['ok', 'exited 0'], ['failed', 'failed'], ['killed', 'killed by its kill_signal'], ['sigkill', 'SIGKILLed'],
      ['running', 'running'], ['lost', 'lost']].map(([c, t]) => h('span', null, h('i', { class: `sw bar-${c}` }), t)),
    h('span', null, h('i', { class: 'sw kill-window' }), 'kill_timeout window'),
    h('span', null, h('i', { class: 'sw restart-window' }), 'restart delay'));
  const zoomIn = h('button', { type: 'button', class: 'secondary', id: 'zoom-in', title: 'Zoom in' }, '+');
  const zoomOut = h('button', { type: 'button', class: 'secondary', id: 'zoom-out', title: 'Zoom out' }, '−');
  const reset = h('button', { type: 'button', class: 'secondary', id: 'zoom-reset' }, 'Reset zoom');
  const el = h('div', { class: 'timeline-box' }, h('div', { class: 'toolbar' }, zoomIn, zoomOut, reset,
    h('span', { class: 'muted' }, 'wheel to zoom, drag to pan, hover a marker for its message')), holder, tip, legend);
  let m = null;
  let view = null; // [v0, v1] in ns, null: the whole allocation

  const width = () => Math.max(640, holder.clientWidth || 900);
  const span = () => (view ? view : [m.t0 - (m.t1 - m.t0) * 0.02, m.t1 + (m.t1 - m.t0) * 0.02]);

  function zoom(factor, centerFrac = 0.5) {
    const [a, b] = span();
    const c = a + (b - a) * centerFrac;
    const w = Math.max((b - a) * factor, 1e6); // at most 1 ms across
    view = [c - w * centerFrac, c + w * (1 - centerFrac)];
    draw();
  }

  function draw() {
    if (!m) return;
    const W = width();
    drawnWidth = W;
    const H = AXIS + m.rows.length * ROW + 8;
    const [v0, v1] = span();
    const plot = W - LABEL - 12;
    const x = (t) => LABEL + ((t - v0) / (v1 - v0)) * plot;
    const svg = s('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, id: 'timeline-svg',
      'data-t0': m.t0, 'data-t1': m.t1 });
    svg.append(s('defs', null, s('clipPath', { id: 'plot-clip' }, s('rect', { x: LABEL, y: 0, width: plot + 12, height: H }))));
    const axis = s('g', { class: 'axis' });
    const step = niceStep(v1 - v0);
    for (let t = Math.ceil((v0 - m.t0) / step) * step + m.t0; t <= v1; t += step) {
      const px = x(t);
      axis.append(s('line', { x1: px, x2: px, y1: AXIS - 6, y2: H, class: 'grid' }),
        s('text', { x: px, y: AXIS - 10, 'text-anchor': 'middle' }, `+${fmtDur(t - m.t0)}`));
    }
    svg.append(axis);
    const body = s('g', { 'clip-path': 'url(#plot-clip)' });
    m.rows.forEach((r, i) => {
      const y = AXIS + i * ROW;
      svg.append(s('rect', { x: 0, y, width: W, height: ROW, class: i % 2 ? 'row odd' : 'row' }),
        s('text', { x: 8, y: y + ROW / 2 + 4, class: 'task-label', 'data-task': r.name }, r.name,
          s('tspan', { class: 'hook', dx: 6 }, r.hook === 'main' ? '' : r.hook)));
      const g = s('g', { class: 'task-row', 'data-task': r.name, 'data-row': i });
      for (const w of r.windows) {
        g.append(s('rect', { x: x(w.start), y: y + 5, width: Math.max(1, x(w.end) - x(w.start)), height: ROW - 10,
          class: `${w.kind}-window`, 'data-start': w.start, 'data-end': w.end }, s('title', null, w.label)));
      }
      for (const run of r.runs) {
        const label = `Run ${run.n}: ${fmtTime(run.start)} → ${run.outcome === 'running' ? 'running' : fmtTime(run.end)} `
          + `(${fmtDur(run.end - run.start)}${run.exitCode !== undefined ? `, exit code ${run.exitCode}, signal ${run.signal}` : ''})`;
        g.append(s('rect', { x: x(run.start), y: y + 10, width: Math.max(2, x(run.end) - x(run.start)), height: ROW - 20,
          rx: 3, class: `bar bar-${run.outcome}`, 'data-task': r.name, 'data-start': run.start, 'data-end': run.end,
          'data-outcome': run.outcome, 'data-label': label }, s('title', null, label)));
      }
      for (const mk of r.markers) {
        const px = x(mk.time);
        const cy = y + ROW / 2;
        const shape = mk.type === 'SIGKILL'
          ? s('path', { d: `M${px} ${cy - 8} L${px + 6} ${cy} L${px} ${cy + 8} L${px - 6} ${cy} Z` })
          : s('circle', { cx: px, cy, r: 4.5 });
        g.append(s('g', { class: `marker m-${mk.cls}`, 'data-type': mk.type, 'data-time': mk.time,
          'data-task': r.name, 'data-label': mk.label }, shape, s('title', null, `${fmtTime(mk.time)} ${mk.label}`)));
      }
      body.append(g);
    });
    if (m.live) {
      const nx = x(m.t1);
      body.append(s('line', { x1: nx, x2: nx, y1: AXIS - 4, y2: H, class: 'now' }));
    }
    svg.append(body);
    clear(holder).append(svg);
  }

  holder.addEventListener('wheel', (e) => {
    e.preventDefault();
    const rect = holder.getBoundingClientRect();
    const frac = Math.min(1, Math.max(0, (e.clientX - rect.left - LABEL) / (width() - LABEL - 12)));
    zoom(e.deltaY < 0 ? 0.8 : 1.25, frac);
  }, { passive: false });
  let drag = null;
  holder.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, view: span() }; holder.setPointerCapture(e.pointerId); });
  holder.addEventListener('pointermove', (e) => {
    const mk = e.target.closest && e.target.closest('.marker, .bar, .kill-window, .restart-window');
    if (mk && !drag) {
      tip.textContent = mk.dataset.label || (mk.querySelector('title') || {}).textContent || '';
      tip.style.left = `${e.offsetX + 12}px`;
      tip.style.top = `${e.offsetY + 12}px`;
      tip.classList.add('show');
    } else if (!drag) tip.classList.remove('show');
    if (!drag) return;
    const dx = e.clientX - drag.x;
    if (Math.abs(dx) < 2) return;
    const [a, b] = drag.view;
    const dt = (-dx / (width() - LABEL - 12)) * (b - a);
    view = [a + dt, b + dt];
    draw();
  });
  holder.addEventListener('pointerup', () => { drag = null; });
  holder.addEventListener('pointerleave', () => tip.classList.remove('show'));
  zoomIn.addEventListener('click', () => zoom(0.5));
  zoomOut.addEventListener('click', () => zoom(2));
  reset.addEventListener('click', () => { view = null; draw(); });
  holder.addEventListener('dblclick', () => { view = null; draw(); });

  // the width follows the page's (a window resized, a scrollbar come or gone): redraw when it changes
  let drawnWidth = 0;
  const resize = new ResizeObserver(() => { if (m && width() !== drawnWidth) draw(); });
  resize.observe(holder);

  return {
    el,
    close: () => resize.disconnect(),
    update(alloc, order) {
      m = model(alloc, order, Date.now() * 1e6);
      draw();
    },
    redraw: draw,
  };
}
