// Coalesces bursts of events into at most one refresh per interval, so a page stays cheap while
// thousands of allocations change.
export function throttled(fn, ms = 300) {
  let timer = null;
  let again = false;
  let closed = false;
  const run = async () => {
    if (closed) return;
    again = false;
    try { await fn(); } catch (e) { /* the next event retries */ }
    timer = setTimeout(() => { timer = null; if (again) trigger(); }, ms);
  };
  const trigger = () => {
    if (timer) { again = true; return; }
    timer = setTimeout(run, 0);
  };
  trigger.close = () => { closed = true; clearTimeout(timer); };
  return trigger;
}
