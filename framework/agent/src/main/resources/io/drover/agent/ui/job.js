// /ui/jobs/<job>: the job's header, its groups with allocation counts, its allocations (paged by the agent),
// and a confirmed "Stop job".
import { call, get, subscribe } from './api.js';
import { clear, fmtDur, fmtTime, h, link, qs, statusBadge } from './dom.js';
import { act } from './app.js';
import { throttled } from './live.js';

const PER_PAGE = 50;

function quote(s) {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export async function jobPage(id) {
  const job = await get(`/v1/job/${encodeURIComponent(id)}`);
  const header = h('div', { class: 'page-head' });
  const groups = h('tbody', { id: 'groups-body' });
  const allocs = h('tbody', { id: 'job-allocs-body' });
  const pager = h('div', { class: 'pager' });
  const state = { tokens: [''], page: 0, next: null, job };
  const el = h('section', { class: 'page', id: 'job-page' }, header,
    h('h2', null, 'Task groups'),
    h('table', { class: 'list', id: 'groups-table' }, h('thead', null, h('tr', null,
      ['Group', 'Count', 'Tasks', 'Starting', 'Running', 'Complete', 'Failed'].map((c) => h('th', null, c)))), groups),
    h('h2', null, 'Allocations'),
    h('table', { class: 'list', id: 'job-allocs' }, h('thead', null, h('tr', null,
      ['ID', 'Name', 'Group', 'Status', 'Desired', 'Created', 'Modified'].map((c) => h('th', null, c)))), allocs),
    pager);

  function drawHeader(stub) {
    const j = state.job;
    clear(header).append(
      h('h1', null, j.ID, ' ', statusBadge(stub ? stub.Status : j.Status)),
      h('dl', { class: 'facts' },
        h('dt', null, 'Type'), h('dd', null, j.Type),
        h('dt', null, 'Version'), h('dd', null, String(j.Version)),
        h('dt', null, 'Submitted'), h('dd', null, fmtTime(j.SubmitTime)),
        h('dt', null, 'Datacenters'), h('dd', null, (j.Datacenters || []).join(', '))),
      h('div', { class: 'actions' }, h('button', {
        type: 'button', class: 'danger', id: 'stop-job', disabled: j.Stop,
        onclick: async () => {
          if (await act(`Stop job ${j.ID}? Its allocations are stopped (poststop tasks still run).`, 'Stop job',
            'DELETE', `/v1/job/${encodeURIComponent(j.ID)}`, undefined, `Job ${j.ID} stopped.`)) refresh();
        },
      }, j.Stop ? 'Stopped' : 'Stop job')));
    const summary = stub ? stub.JobSummary.Summary : {};
    clear(groups).append(...j.TaskGroups.map((g) => {
      const c = summary[g.Name] || {};
      return h('tr', { 'data-group': g.Name }, h('td', null, g.Name), h('td', null, String(g.Count)),
        h('td', null, g.Tasks.map((t) => `${t.Name}${t.Lifecycle ? ` (${t.Lifecycle.Hook})` : ''}`).join(', ')),
        ['Starting', 'Running', 'Complete', 'Failed'].map((k) => h('td', { class: 'num' }, String(c[k] ?? 0))));
    }));
  }

  async function loadAllocs() {
    const q = qs({ per_page: PER_PAGE, filter: `JobID == ${quote(id)}`, next_token: state.tokens[state.page] });
    const { body, headers } = await call('GET', `/v1/allocations?${q}`);
    state.next = headers.get('X-Nomad-NextToken');
    body.sort((a, b) => b.CreateTime - a.CreateTime);
    clear(allocs).append(...body.map((a) => h('tr', { 'data-alloc': a.ID },
      h('td', null, link(`/ui/allocations/${a.ID}`, a.ID.slice(0, 8), { class: 'mono', title: a.ID })),
      h('td', null, a.Name), h('td', null, a.TaskGroup), h('td', null, statusBadge(a.ClientStatus)),
      h('td', null, a.DesiredStatus), h('td', null, fmtTime(a.CreateTime)),
      h('td', { title: fmtTime(a.ModifyTime) }, fmtDur(Date.now() * 1e6 - a.ModifyTime) + ' ago'))));
    if (body.length === 0) allocs.append(h('tr', null, h('td', { colspan: 7, class: 'muted' }, 'No allocations.')));
    clear(pager).append(
      h('button', { type: 'button', class: 'secondary', disabled: state.page === 0,
        onclick: () => { state.page--; loadAllocs(); } }, '← Previous'),
      h('span', { class: 'muted' }, `page ${state.page + 1}`),
      h('button', { type: 'button', class: 'secondary', disabled: !state.next,
        onclick: () => { state.tokens[state.page + 1] = state.next; state.page++; loadAllocs(); } }, 'Next →'));
  }

  async function load() {
    const [full, stubs] = await Promise.all([get(`/v1/job/${encodeURIComponent(id)}`),
      get(`/v1/jobs?filter=${encodeURIComponent(`ID == ${quote(id)}`)}`)]);
    state.job = full;
    drawHeader(stubs[0]);
    await loadAllocs();
  }

  const refresh = throttled(load, 500);
  await load();
  const unsubscribe = subscribe([`Job:${id}`, 'Allocation'], (ev) => {
    if (ev.Topic === 'Job' || (ev.Payload.Allocation && ev.Payload.Allocation.JobID === id)) refresh();
  }, refresh);
  return { name: 'job', el, close: () => { unsubscribe(); refresh.close(); } };
}
