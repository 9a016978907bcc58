// /ui/allocations/<id>: the `alloc status` header, the timeline, each task's events, and its logs followed
// live; stop the allocation and signal a task, each confirmed. Updated from the event stream.
import { ApiError, get, stream, subscribe } from './api.js';
import { clear, fmtDur, fmtTime, h, link, statusBadge } from './dom.js';
import { act } from './app.js';
import { lifecycleOrder, timeline } from './timeline.js';

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGUSR1', 'SIGUSR2', 'SIGQUIT', 'SIGKILL'];

function destroyedAt(alloc) {
  let at = null;
  for (const t of Object.values(alloc.TaskStates || {})) {
    for (const e of t.Events || []) if (e.Type === 'Garbage Collected') at = Math.max(at || 0, e.Time);
  }
  return at;
}

export async function allocPage(id) {
  let alloc = await get(`/v1/allocation/${encodeURIComponent(id)}`);
  let job = null;
  try {
    job = await get(`/v1/job/${encodeURIComponent(alloc.JobID)}`);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e; // a purged job: declaration order then
  }
  const header = h('div', { class: 'page-head' });
  const facts = h('dl', { class: 'facts', id: 'alloc-facts' });
  const banner = h('div', { id: 'gc-banner' });
  const actions = h('div', { class: 'actions', id: 'alloc-actions' });
  const tl = timeline();
  const tasks = h('div', { id: 'task-events' });
  const logs = h('div', { id: 'logs' });
  const el = h('section', { class: 'page', id: 'alloc-page' }, header, facts, actions, banner,
    h('h2', null, 'Timeline'), tl.el, h('h2', null, 'Task events'), tasks, h('h2', null, 'Logs'), logs);
  let logCtl = null;

  function drawActions() {
    // a live update redraws the actions: keep what the user picked
    const picked = { task: actions.querySelector('#signal-task')?.value, sig: actions.querySelector('#signal-name')?.value };
    const taskSel = h('select', { id: 'signal-task' }, h('option', { value: '' }, 'every running task'),
      Object.keys(alloc.TaskStates).map((t) => h('option', { value: t }, t)));
    const sigSel = h('select', { id: 'signal-name' }, SIGNALS.map((x) => h('option', { value: x }, x)));
    if (picked.task !== undefined) taskSel.value = picked.task;
    if (picked.sig !== undefined) sigSel.value = picked.sig;
    const terminal = !(alloc.ClientStatus === 'running' || alloc.ClientStatus === 'pending');
    clear(actions).append(
      h('button', { type: 'button', class: 'danger', id: 'stop-alloc', disabled: terminal,
        onclick: () => act(`Stop allocation ${alloc.ID.slice(0, 8)}? Its tasks are killed in stop order, then its `
          + 'poststop tasks run.', 'Stop allocation', 'POST', `/v1/allocation/${alloc.ID}/stop`, undefined,
        'Stop requested.') }, 'Stop allocation'),
      h('span', { class: 'signal' }, 'Signal ', taskSel, ' with ', sigSel, ' ',
        h('button', { type: 'button', class: 'secondary', id: 'send-signal', disabled: terminal,
          onclick: () => act(`Send ${sigSel.value} to ${taskSel.value || 'every running task'} of allocation `
            + `${alloc.ID.slice(0, 8)}?`, `Send ${sigSel.value}`, 'POST', `/v1/client/allocation/${alloc.ID}/signal`,
          { Signal: sigSel.value, Task: taskSel.value }, `${sigSel.value} sent.`) }, 'Send')));
  }

  function draw() {
    const order = lifecycleOrder(alloc, job);
    clear(header).append(h('h1', null, 'Allocation ', h('span', { class: 'mono', title: alloc.ID }, alloc.ID.slice(0, 8)),
      ' ', statusBadge(alloc.ClientStatus)));
    clear(facts).append(
      h('dt', null, 'ID'), h('dd', { class: 'mono' }, alloc.ID),
      h('dt', null, 'Name'), h('dd', null, alloc.Name),
      h('dt', null, 'Job'), h('dd', null, job ? link(`/ui/jobs/${encodeURIComponent(alloc.JobID)}`, alloc.JobID) : alloc.JobID),
      h('dt', null, 'Task group'), h('dd', null, alloc.TaskGroup),
      h('dt', null, 'Client status'), h('dd', { id: 'client-status' }, alloc.ClientStatus,
        alloc.ClientDescription ? ` — ${alloc.ClientDescription}` : ''),
      h('dt', null, 'Desired status'), h('dd', null, alloc.DesiredStatus,
        alloc.DesiredDescription ? ` — ${alloc.DesiredDescription}` : ''),
      h('dt', null, 'Created'), h('dd', null, fmtTime(alloc.CreateTime)),
      h('dt', null, 'Modified'), h('dd', null, fmtTime(alloc.ModifyTime)));
    const gcAt = destroyedAt(alloc);
    clear(banner);
    if (gcAt) {
      banner.append(h('p', { class: 'notice', id: 'gc-notice' }, `Garbage collected at ${fmtTime(gcAt)}: the `
        + 'allocation\'s directory and logs are gone. Its record — every task state and event below — is kept.'));
    }
    drawActions();
    tl.update(alloc, order);
    clear(tasks).append(...order.map(({ name, hook }) => {
      const t = alloc.TaskStates[name];
      return h('div', { class: 'task', 'data-task': name },
        h('h3', null, name, hook !== 'main' ? h('span', { class: 'hook' }, ` ${hook}`) : '', ' ', statusBadge(t.State),
          t.Failed ? h('span', { class: 'badge st-failed' }, 'failed') : '',
          h('span', { class: 'muted' }, ` restarts ${t.Restarts}; started ${fmtTime(t.StartedAt)}; finished ${fmtTime(t.FinishedAt)}`)),
        h('table', { class: 'list events' }, h('thead', null, h('tr', null, ['Time', '+', 'Type', 'Description'].map((c) => h('th', null, c)))),
          h('tbody', null, (t.Events || []).map((e) => h('tr', { 'data-type': e.Type },
            h('td', { class: 'mono' }, fmtTime(e.Time)),
            h('td', { class: 'mono muted' }, `+${fmtDur(e.Time - alloc.CreateTime)}`),
            h('td', null, e.Type),
            h('td', null, e.DisplayMessage || e.Message || '',
              e.Type === 'Terminated' && !/Exit Code/.test(e.DisplayMessage || '') ? ` (exit code ${e.ExitCode}, signal ${e.Signal})` : '',
              e.Type === 'Killing' && e.KillTimeout ? ` (kill_timeout ${fmtDur(e.KillTimeout)})` : '',
              e.Type === 'Restarting' && e.StartDelay ? ` (in ${fmtDur(e.StartDelay)})` : ''))))));
    }));
  }

  function drawLogs() {
    const order = lifecycleOrder(alloc, job);
    const taskSel = h('select', { id: 'log-task' }, order.map(({ name }) => h('option', { value: name }, name)));
    const typeSel = h('select', { id: 'log-type' }, h('option', { value: 'stdout' }, 'stdout'), h('option', { value: 'stderr' }, 'stderr'));
    const pre = h('pre', { class: 'log', id: 'log-output' });
    const status = h('span', { class: 'muted', id: 'log-status' });
    clear(logs).append(h('div', { class: 'toolbar' }, taskSel, typeSel, status), pre);
    const follow = () => {
      if (logCtl) logCtl.abort();
      clear(pre);
      if (destroyedAt(alloc)) {
        status.textContent = '';
        pre.append(h('span', { class: 'muted', id: 'logs-gone' },
          'The logs were removed with the allocation\'s directory by garbage collection.'));
        return;
      }
      const ctl = new AbortController();
      logCtl = ctl;
      status.textContent = 'following…';
      const path = `/v1/client/fs/logs/${alloc.ID}?task=${encodeURIComponent(taskSel.value)}&type=${typeSel.value}`
        + '&follow=true&plain=true';
      stream(path, (text) => {
        const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
        pre.append(text);
        if (atEnd) pre.scrollTop = pre.scrollHeight;
      }, ctl.signal).then(() => { if (logCtl === ctl) status.textContent = 'the task ended: log complete'; })
        .catch((e) => { if (!ctl.signal.aborted) status.textContent = String(e.message || e); });
    };
    taskSel.addEventListener('change', follow);
    typeSel.addEventListener('change', follow);
    follow();
  }

  draw();
  drawLogs();
  const reload = async () => {
    alloc = await get(`/v1/allocation/${alloc.ID}`);
    draw();
  };
  const unsubscribe = subscribe([`Allocation:${alloc.ID}`], (ev) => {
    const wasGone = destroyedAt(alloc);
    if (ev.Payload && ev.Payload.Allocation) alloc = ev.Payload.Allocation;
    draw();
    if (!wasGone && destroyedAt(alloc)) drawLogs();
  }, reload);
  const ticker = setInterval(() => { if (alloc.ClientStatus === 'running' || alloc.ClientStatus === 'pending') tl.update(alloc, lifecycleOrder(alloc, job)); }, 1000);
  return { name: 'alloc', el, attached: () => tl.redraw(),
    close: () => { unsubscribe(); clearInterval(ticker); if (logCtl) logCtl.abort(); tl.close(); } };
}
