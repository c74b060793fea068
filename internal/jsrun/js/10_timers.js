// Timers on the invocation's event loop: Go sleeps until the earliest one is due
// (__docsd_state says when) and then runs the due ones (__docsd_timers), within the time limit.
const timers = new Map();
let timerSeq = 0;

function addTimer(fn, ms, args, repeat) {
  const id = ++timerSeq;
  const delay = Math.max(0, Number(ms) || 0);
  timers.set(id, { at: Date.now() + delay, fn, args, repeat: repeat ? Math.max(delay, 1) : 0, seq: id });
  return id;
}
define("setTimeout", (fn, ms, ...args) => addTimer(fn, ms, args, false));
define("setInterval", (fn, ms, ...args) => addTimer(fn, ms, args, true));
define("clearTimeout", (id) => { timers.delete(Number(id)); });
define("clearInterval", (id) => { timers.delete(Number(id)); });

// nextTimerDelay is the milliseconds until the earliest timer, or -1 with none.
function nextTimerDelay() {
  let at = Infinity;
  for (const t of timers.values()) if (t.at < at) at = t.at;
  return at === Infinity ? -1 : Math.max(0, at - Date.now());
}

define("__docsd_timers", function () {
  const now = Date.now();
  const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at || a[1].seq - b[1].seq);
  for (const [id, t] of due) {
    if (!timers.has(id)) continue; // cleared by an earlier callback
    if (t.repeat) t.at = now + t.repeat;
    else timers.delete(id);
    try {
      if (typeof t.fn === "function") t.fn(...t.args);
    } catch (e) {
      consoleObj.error("Uncaught (in timer)", e);
    }
  }
});

class AbortSignal extends EventTarget {
  constructor(key) {
    if (key !== abortKey) throw new TypeError("AbortSignal is not constructible");
    super();
    this.aborted = false;
    this.reason = undefined;
    this.onabort = null;
  }
  throwIfAborted() { if (this.aborted) throw this.reason; }
  _abort(reason) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    this.dispatchEvent(new Event("abort"));
  }
  static abort(reason) {
    const s = new AbortSignal(abortKey);
    s._abort(reason);
    return s;
  }
  static timeout(ms) {
    const s = new AbortSignal(abortKey);
    setTimeout(() => s._abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
    return s;
  }
  static any(signals) {
    const s = new AbortSignal(abortKey);
    for (const x of signals) {
      if (x.aborted) { s._abort(x.reason); return s; }
    }
    for (const x of signals) x.addEventListener("abort", () => s._abort(x.reason));
    return s;
  }
}
const abortKey = {};
class AbortController {
  constructor() { this.signal = new AbortSignal(abortKey); }
  abort(reason) { this.signal._abort(reason); }
}
define("AbortSignal", AbortSignal);
define("AbortController", AbortController);
