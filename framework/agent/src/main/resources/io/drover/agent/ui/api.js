// The agent's HTTP API as the UI uses it: the token from sessionStorage in X-Nomad-Token, JSON bodies with
// Content-Type application/json (the agent refuses other bodies on writes), and a token prompt on 401/403.
const TOKEN_KEY = 'drover.token';

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function headers(extra = {}) {
  const hdrs = { ...extra };
  const t = token();
  if (t) hdrs['X-Nomad-Token'] = t;
  return hdrs;
}

let prompting = null;

/** Shows the token dialog; resolves once the user gave a token. One dialog at a time. */
export function askToken(reason) {
  if (prompting) return prompting;
  const dialog = document.getElementById('token-dialog');
  const input = document.getElementById('token-input');
  document.getElementById('token-error').textContent = reason || '';
  prompting = new Promise((resolve) => {
    const form = document.getElementById('token-form');
    const done = (e) => {
      e.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      sessionStorage.setItem(TOKEN_KEY, value);
      form.removeEventListener('submit', done);
      dialog.close();
      input.value = '';
      prompting = null;
      resolve(value);
    };
    form.addEventListener('submit', done);
    dialog.addEventListener('cancel', (e) => e.preventDefault(), { once: true });
  });
  if (!dialog.open) dialog.showModal();
  input.focus();
  return prompting;
}

async function errorOf(resp) {
  try {
    const body = await resp.json();
    return body.error || resp.statusText;
  } catch (e) {
    return resp.statusText;
  }
}

/**
 * One API call; on 401/403 (no token, or a wrong one) asks for the token and retries.
 * @returns {{body: any, headers: Headers}}
 */
export async function call(method, path, body) {
  for (;;) {
    const init = { method, headers: headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const resp = await fetch(path, init);
    if (resp.status === 401 || (resp.status === 403 && (await resp.clone().text()).includes('token'))) {
      sessionStorage.removeItem(TOKEN_KEY);
      await askToken(resp.status === 401 ? '' : 'That token was refused; try again.');
      continue;
    }
    if (!resp.ok) throw new ApiError(resp.status, await errorOf(resp));
    const text = await resp.text();
    return { body: text ? JSON.parse(text) : null, headers: resp.headers };
  }
}

export async function get(path) {
  return (await call('GET', path)).body;
}

/**
 * Streams a response body chunk by chunk (log follows, the event stream) until it ends or `signal` aborts.
 * @param onText called with each decoded chunk
 */
export async function stream(path, onText, signal) {
  for (;;) {
    const resp = await fetch(path, { headers: headers(), signal });
    if (resp.status === 401 || resp.status === 403) {
      sessionStorage.removeItem(TOKEN_KEY);
      await askToken('');
      continue;
    }
    if (!resp.ok) throw new ApiError(resp.status, await errorOf(resp));
    const reader = resp.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onText(decoder.decode(value, { stream: true }));
    }
  }
}

/**
 * Nomad's event stream (GET /v1/event/stream): calls onEvent(event) for every event of `topics`; reconnects
 * after a second when the stream breaks (calling onReconnect, so a page reloads what it may have missed).
 * @returns a function that ends the subscription
 */
export function subscribe(topics, onEvent, onReconnect) {
  const ctl = new AbortController();
  const q = topics.map((t) => `topic=${encodeURIComponent(t)}`).join('&');
  const live = document.getElementById('live');
  let first = true;
  const run = async () => {
    while (!ctl.signal.aborted) {
      let buf = '';
      try {
        if (!first && onReconnect) onReconnect();
        first = false;
        await stream(`/v1/event/stream?${q}`, (text) => {
          live.textContent = 'live';
          live.classList.add('on');
          buf += text;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            if (!line) continue;
            const frame = JSON.parse(line);
            for (const ev of frame.Events || []) onEvent(ev);
          }
        }, ctl.signal);
      } catch (e) {
        if (ctl.signal.aborted) return;
      }
      live.textContent = 'offline';
      live.classList.remove('on');
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  run();
  return () => ctl.abort();
}
