// The UI's shell: client-side routing at Nomad's paths (/ui/jobs, /ui/jobs/<job>, /ui/allocations/<id>,
// /ui/plugins), a confirmation dialog for every action that changes state, and flash messages.
import { call, ApiError } from './api.js';
import { clear, h } from './dom.js';
import { jobsPage } from './jobs.js';
import { jobPage } from './job.js';
import { allocPage } from './alloc.js';
import { pluginsPage } from './plugins.js';

const routes = [
  [/^\/ui\/?$/, () => { history.replaceState(null, '', '/ui/jobs'); return jobsPage(); }],
  [/^\/ui\/jobs\/?$/, () => jobsPage()],
  [/^\/ui\/jobs\/([^/]+)\/?$/, (m) => jobPage(decodeURIComponent(m[1]))],
  [/^\/ui\/allocations\/([^/]+)\/?$/, (m) => allocPage(decodeURIComponent(m[1]))],
  [/^\/ui\/plugins\/?$/, () => pluginsPage()],
];

let current = null; // the page shown: { el, close() }

/** Asks the user; resolves true only on "Yes". */
export function confirmAction(text, yes = 'Yes') {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = text;
  document.getElementById('confirm-ok').textContent = yes;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
  });
}

export function flash(text, isError = false) {
  const el = document.getElementById('flash');
  el.textContent = text;
  el.className = isError ? 'show error' : 'show';
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { el.className = ''; }, 4000);
}

/** Confirms, then runs an API call and flashes its outcome. */
export async function act(question, yes, method, path, body, done) {
  if (!(await confirmAction(question, yes))) return false;
  try {
    await call(method, path, body);
    flash(done);
    return true;
  } catch (e) {
    flash(e instanceof ApiError ? e.message : String(e), true);
    return false;
  }
}

export function navigate(path) {
  history.pushState(null, '', path);
  render();
}

async function render() {
  if (current && current.close) current.close();
  current = null;
  const app = document.getElementById('app');
  const path = location.pathname;
  for (const [re, page] of routes) {
    const m = path.match(re);
    if (m) {
      document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', path.startsWith(a.getAttribute('href'))));
      try {
        const p = await page(m);
        if (location.pathname !== path) { if (p.close) p.close(); return; } // navigated away meanwhile
        current = p;
        clear(app).append(p.el);
        if (p.attached) p.attached(); // now in the document: sizes are known (the timeline's width)
        document.body.dataset.page = p.name;
        performance.mark(`drover-rendered-${p.name}`);
      } catch (e) {
        clear(app).append(h('div', { class: 'error-page' }, h('h1', null, 'Error'),
          h('p', { class: 'error', id: 'page-error' }, e instanceof ApiError ? e.message : String(e))));
      }
      return;
    }
  }
  clear(app).append(h('div', { class: 'error-page' }, h('h1', null, 'Not found'),
    h('p', { id: 'page-error' }, `No page at ${path}.`)));
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-link]');
  if (!a || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', render);
document.getElementById('gc-button').addEventListener('click', () => act(
  'Run garbage collection now? Every terminal allocation is destroyed: its directory and logs are deleted, '
  + 'its record is kept.', 'Run GC', 'PUT', '/v1/system/gc', undefined, 'Garbage collection scheduled.'));
render();
