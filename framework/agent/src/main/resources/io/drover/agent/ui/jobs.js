// /ui/jobs: every job with its type, status, allocation counts by status and submit time. Filtering is
// done by the agent (?filter=, Nomad's expression syntax) and paged (?per_page=, X-Nomad-NextToken), so the
// page stays fast with thousands of jobs and allocations; sorting orders the page shown.
import { call, subscribe } from './api.js';
import { clear, fmtTime, h, link, qs, statusBadge } from './dom.js';
import { throttled } from './live.js';

const PER_PAGE = 50;
const COLUMNS = [
  ['ID', 'Job', (j) => j.ID],
  ['Type', 'Type', (j) => j.Type],
  ['Status', 'Status', (j) => j.Status],
  ['Allocations', 'Allocations', (j) => -(j.Allocations.Running + j.Allocations.Pending)],
  ['SubmitTime', 'Submitted', (j) => j.SubmitTime],
];

function quote(s) {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export async function jobsPage() {
  const state = { text: '', type: '', status: '', sort: 'SubmitTime', desc: true, tokens: [''], page: 0, jobs: [], next: null };
  const tbody = h('tbody', { id: 'jobs-body' });
  const pager = h('div', { class: 'pager' });
  const count = h('span', { class: 'muted', id: 'jobs-count' });
  const search = h('input', { type: 'search', id: 'jobs-search', placeholder: 'Filter by job ID…' });
  const type = h('select', { id: 'jobs-type' }, h('option', { value: '' }, 'Any type'),
    ['batch', 'service', 'sysbatch'].map((t) => h('option', { value: t }, t)));
  const status = h('select', { id: 'jobs-status' }, h('option', { value: '' }, 'Any status'),
    ['pending', 'running', 'dead'].map((t) => h('option', { value: t }, t)));
  const head = h('tr', null, COLUMNS.map(([key, label]) => h('th', {
    class: 'sortable', 'data-sort': key,
    onclick: () => { state.desc = state.sort === key ? !state.desc : key === 'SubmitTime'; state.sort = key; draw(); },
  }, label)));
  const el = h('section', { class: 'page', id: 'jobs-page' },
    h('div', { class: 'page-head' }, h('h1', null, 'Jobs'), count),
    h('div', { class: 'toolbar' }, search, type, status),
    h('table', { class: 'list', id: 'jobs-table' }, h('thead', null, head), tbody), pager);

  function filter() {
    const parts = [];
    if (state.text) parts.push(`ID contains ${quote(state.text)}`);
    if (state.type) parts.push(`Type == ${quote(state.type)}`);
    if (state.status) parts.push(`Status == ${quote(state.status)}`);
    return parts.join(' and ');
  }

  async function load() {
    const q = qs({ per_page: PER_PAGE, next_token: state.tokens[state.page], filter: filter() });
    const { body, headers } = await call('GET', `/v1/jobs?${q}`);
    state.jobs = body;
    state.next = headers.get('X-Nomad-NextToken');
    draw();
  }

  function draw() {
    const col = COLUMNS.find((c) => c[0] === state.sort);
    const rows = [...state.jobs].sort((a, b) => {
      const x = col[2](a); const y = col[2](b);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return state.desc ? -c : c;
    });
    head.querySelectorAll('th').forEach((th) => {
      th.classList.toggle('sorted', th.dataset.sort === state.sort);
      th.classList.toggle('desc', th.dataset.sort === state.sort && state.desc);
    });
    clear(tbody).append(...rows.map((j) => h('tr', { 'data-job': j.ID },
      h('td', null, link(`/ui/jobs/${encodeURIComponent(j.ID)}`, j.ID)),
      h('td', null, j.Type),
      h('td', null, statusBadge(j.Status)),
      h('td', { class: 'counts' }, ['Pending', 'Running', 'Complete', 'Failed'].map((k) =>
        h('span', { class: `count c-${k.toLowerCase()}`, title: k, 'data-count': k }, String(j.Allocations[k])))),
      h('td', null, fmtTime(j.SubmitTime)))));
    if (rows.length === 0) tbody.append(h('tr', null, h('td', { colspan: 5, class: 'muted' }, 'No jobs.')));
    count.textContent = `${rows.length} shown`;
    clear(pager).append(
      h('button', { type: 'button', class: 'secondary', id: 'jobs-prev', disabled: state.page === 0,
        onclick: () => { state.page--; load(); } }, '← Previous'),
      h('span', { class: 'muted' }, `page ${state.page + 1}`),
      h('button', { type: 'button', class: 'secondary', id: 'jobs-next', disabled: !state.next,
        onclick: () => { state.tokens[state.page + 1] = state.next; state.page++; load(); } }, 'Next →'));
  }

  const refresh = throttled(load, 500);
  const refilter = () => { state.tokens = ['']; state.page = 0; refresh(); };
  let typing;
  search.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => { state.text = search.value.trim(); refilter(); }, 200); });
  type.addEventListener('change', () => { state.type = type.value; refilter(); });
  status.addEventListener('change', () => { state.status = status.value; refilter(); });
  await load();
  const unsubscribe = subscribe(['Job', 'Allocation'], refresh, refresh);
  return { name: 'jobs', el, close: () => { unsubscribe(); refresh.close(); } };
}
