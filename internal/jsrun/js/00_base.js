// Base of the web APIs: the host bridge, bytes, DOMException, events, console, encoding,
// structuredClone. Every file here runs inside one function, so helpers stay private; what a
// script sees is set on globalThis.
const G = globalThis;
const hostFn = G.__docsd_host;
delete G.__docsd_host;

// host calls a Go operation; a Go error whose message starts with a DOMException name is
// rethrown as that DOMException, others as TypeError.
function host(op, ...args) {
  try {
    return hostFn(op, ...args);
  } catch (e) {
    const msg = String(e && e.message !== undefined ? e.message : e);
    const m = /^([A-Z][A-Za-z]*Error): ([\s\S]*)$/.exec(msg);
    if (m && DOM_ERRORS[m[1]] !== undefined) throw new DOMException(m[2], m[1]);
    throw new TypeError(msg);
  }
}

function define(name, value) {
  Object.defineProperty(G, name, { value, writable: true, configurable: true, enumerable: false });
}

// Bytes <-> binary strings (one character per byte), the form bytes cross to Go in.
function bytesToBinary(u8) {
  let s = "";
  for (let i = 0; i < u8.length; i += 8192) {
    s += String.fromCharCode.apply(null, u8.subarray(i, i + 8192));
  }
  return s;
}
function binaryToBytes(s) {
  const u8 = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
  return u8;
}

// toBytes reads a BufferSource (ArrayBuffer, a typed array, DataView) as a Uint8Array view.
function toBytes(v, what) {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new TypeError((what || "the data") + " is not an ArrayBuffer or a view of one");
}
function copyBuffer(u8) {
  return u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength);
}

const DOM_ERRORS = {
  IndexSizeError: 1, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
  SyntaxError: 12, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18,
  NetworkError: 19, AbortError: 20, QuotaExceededError: 22, TimeoutError: 23,
  DataCloneError: 25, InvalidCharacterError: 5, DataError: 0, OperationError: 0,
};
class DOMException extends Error {
  constructor(message = "", name = "Error") {
    super(message);
    Object.defineProperty(this, "name", { value: String(name), configurable: true, writable: true });
  }
  get code() { return DOM_ERRORS[this.name] || 0; }
}
define("DOMException", DOMException);

class Event {
  constructor(type, init = {}) {
    this.type = String(type);
    this.bubbles = !!init.bubbles;
    this.cancelable = !!init.cancelable;
    this.defaultPrevented = false;
    this.target = null;
    this.currentTarget = null;
    this.timeStamp = Date.now();
  }
  preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this._stop = true; }
}
class EventTarget {
  constructor() { Object.defineProperty(this, "_listeners", { value: new Map() }); }
  addEventListener(type, fn, opts) {
    if (!fn) return;
    const list = this._listeners.get(type) || [];
    if (list.some((l) => l.fn === fn)) return;
    list.push({ fn, once: !!(opts && typeof opts === "object" && opts.once) });
    this._listeners.set(type, list);
  }
  removeEventListener(type, fn) {
    const list = this._listeners.get(type);
    if (list) this._listeners.set(type, list.filter((l) => l.fn !== fn));
  }
  dispatchEvent(ev) {
    ev.target = ev.currentTarget = this;
    const handler = this["on" + ev.type];
    if (typeof handler === "function") handler.call(this, ev);
    for (const l of (this._listeners.get(ev.type) || []).slice()) {
      if (l.once) this.removeEventListener(ev.type, l.fn);
      if (typeof l.fn === "function") l.fn.call(this, ev);
      else if (l.fn && typeof l.fn.handleEvent === "function") l.fn.handleEvent(ev);
      if (ev._stop) break;
    }
    return !ev.defaultPrevented;
  }
}
define("Event", Event);
define("EventTarget", EventTarget);

// console: each call becomes one line of the invocation's trace, with its level.
function formatArg(v, depth = 0) {
  if (typeof v === "string") return v;
  if (v instanceof Error) return v.stack ? `${v.name}: ${v.message}\n${v.stack}`.trimEnd() : `${v.name}: ${v.message}`;
  if (v === undefined || typeof v === "function" || typeof v === "symbol" || typeof v === "bigint") return String(v);
  try {
    const seen = new WeakSet();
    return JSON.stringify(v, (k, x) => {
      if (typeof x === "bigint") return x.toString();
      if (x && typeof x === "object") {
        if (seen.has(x)) return "[Circular]";
        seen.add(x);
      }
      return x;
    }) ?? String(v);
  } catch (e) {
    return String(v);
  }
}
function formatLog(args) {
  if (typeof args[0] === "string" && /%[sdifoOj%]/.test(args[0])) {
    let i = 1;
    const first = args[0].replace(/%([sdifoOj%])/g, (m, c) => {
      if (c === "%") return "%";
      if (i >= args.length) return m;
      const a = args[i++];
      if (c === "d" || c === "i") return String(parseInt(a, 10));
      if (c === "f") return String(parseFloat(a));
      return formatArg(a);
    });
    return [first, ...args.slice(i).map((a) => formatArg(a))].join(" ");
  }
  return args.map((a) => formatArg(a)).join(" ");
}
const counts = new Map();
const timersLabel = new Map();
const consoleObj = {
  log: (...a) => host("log", "log", formatLog(a)),
  info: (...a) => host("log", "info", formatLog(a)),
  debug: (...a) => host("log", "debug", formatLog(a)),
  trace: (...a) => host("log", "debug", formatLog(a)),
  warn: (...a) => host("log", "warn", formatLog(a)),
  error: (...a) => host("log", "error", formatLog(a)),
  assert: (cond, ...a) => { if (!cond) host("log", "error", "Assertion failed" + (a.length ? ": " + formatLog(a) : "")); },
  dir: (v) => host("log", "log", formatArg(v)),
  table: (v) => host("log", "log", formatArg(v)),
  count: (label = "default") => { const n = (counts.get(label) || 0) + 1; counts.set(label, n); host("log", "log", `${label}: ${n}`); },
  countReset: (label = "default") => counts.delete(label),
  time: (label = "default") => timersLabel.set(label, Date.now()),
  timeEnd: (label = "default") => { const t = timersLabel.get(label); timersLabel.delete(label); if (t !== undefined) host("log", "log", `${label}: ${Date.now() - t}ms`); },
  timeLog: (label = "default", ...a) => { const t = timersLabel.get(label); if (t !== undefined) host("log", "log", `${label}: ${Date.now() - t}ms ${formatLog(a)}`.trimEnd()); },
  group: () => {}, groupCollapsed: () => {}, groupEnd: () => {},
};
define("console", consoleObj);

define("atob", function atob(s) {
  if (arguments.length < 1) throw new TypeError("atob needs 1 argument");
  return host("atob", String(s));
});
define("btoa", function btoa(s) {
  if (arguments.length < 1) throw new TypeError("btoa needs 1 argument");
  return host("btoa", String(s));
});

class TextEncoder {
  get encoding() { return "utf-8"; }
  encode(s = "") { return binaryToBytes(host("text.encode", String(s))); }
  encodeInto(s, dest) {
    const b = this.encode(s);
    const n = Math.min(b.length, dest.length);
    dest.set(b.subarray(0, n));
    return { read: String(s).length, written: n };
  }
}
class TextDecoder {
  constructor(label = "utf-8", opts = {}) {
    const l = String(label).toLowerCase().trim();
    if (l !== "utf-8" && l !== "utf8" && l !== "unicode-1-1-utf-8") {
      throw new RangeError(`TextDecoder: the encoding "${label}" is not supported`);
    }
    this.fatal = !!opts.fatal;
    this.ignoreBOM = !!opts.ignoreBOM;
  }
  get encoding() { return "utf-8"; }
  // decode with {stream: true} holds back an incomplete UTF-8 sequence at the end of input
  // for the next call, as streaming parsers (server-sent events) need.
  decode(input, opts) {
    let b = input === undefined ? new Uint8Array(0) : toBytes(input, "the input");
    if (this._pending && this._pending.length) {
      const all = new Uint8Array(this._pending.length + b.length);
      all.set(this._pending);
      all.set(b, this._pending.length);
      b = all;
    }
    this._pending = null;
    if (opts && opts.stream) {
      const cut = incompleteTail(b);
      if (cut < b.length) {
        this._pending = b.slice(cut);
        b = b.subarray(0, cut);
      }
    }
    if (!this.ignoreBOM && !this._bomSeen && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    this._bomSeen = !!(opts && opts.stream) && (this._bomSeen || b.length > 0);
    return b.length ? host("text.decode", bytesToBinary(b), this.fatal ? "fatal" : "") : "";
  }
}
// incompleteTail is where an unfinished UTF-8 sequence starts at the end of b (b.length if none).
function incompleteTail(b) {
  for (let i = Math.max(0, b.length - 3); i < b.length; i++) {
    const x = b[i];
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    if (need > 1 && i + need > b.length) return i;
  }
  return b.length;
}
define("TextEncoder", TextEncoder);
define("TextDecoder", TextDecoder);

define("queueMicrotask", function queueMicrotask(fn) {
  if (typeof fn !== "function") throw new TypeError("queueMicrotask needs a function");
  Promise.resolve().then(() => fn()).catch((e) => consoleObj.error("Uncaught (in microtask)", e));
});

const timeOrigin = Date.now();
define("performance", { timeOrigin, now: () => Number(host("now")) - timeOrigin });

// structuredClone: the structured clone algorithm for the types scripts pass around.
function clone(v, seen) {
  if (v === null || typeof v !== "object") {
    if (typeof v === "function" || typeof v === "symbol") throw new DOMException(`${String(v)} could not be cloned`, "DataCloneError");
    return v;
  }
  if (seen.has(v)) return seen.get(v);
  let out;
  if (v instanceof Date) out = new Date(v.getTime());
  else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
  else if (v instanceof ArrayBuffer) out = v.slice(0);
  else if (ArrayBuffer.isView(v)) {
    const buf = clone(v.buffer, seen);
    out = v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length);
  } else if (v instanceof Map) {
    out = new Map();
    seen.set(v, out);
    for (const [k, x] of v) out.set(clone(k, seen), clone(x, seen));
    return out;
  } else if (v instanceof Set) {
    out = new Set();
    seen.set(v, out);
    for (const x of v) out.add(clone(x, seen));
    return out;
  } else if (v instanceof Error) {
    out = new (G[v.name] && G[v.name].prototype instanceof Error ? G[v.name] : Error)(v.message);
    if (v.stack) out.stack = v.stack;
  } else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
  else if (G.Blob && v instanceof G.Blob) out = v.slice(0, v.size, v.type);
  else if (Array.isArray(v)) {
    out = new Array(v.length);
    seen.set(v, out);
    for (let i = 0; i < v.length; i++) if (i in v) out[i] = clone(v[i], seen);
    return out;
  } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) {
    throw new DOMException(`${Object.prototype.toString.call(v)} could not be cloned`, "DataCloneError");
  } else {
    out = {};
    seen.set(v, out);
    for (const k of Object.keys(v)) out[k] = clone(v[k], seen);
    return out;
  }
  seen.set(v, out);
  return out;
}
define("structuredClone", function structuredClone(v) {
  if (arguments.length < 1) throw new TypeError("structuredClone needs 1 argument");
  return clone(v, new Map());
});
define("self", G);
define("navigator", { userAgent: "docsd", hardwareConcurrency: 1 });
