// Web streams: a small polyfill, enough for bundles that build or read streams (a body's
// ReadableStream, TransformStream pipes, TextEncoderStream). Queues are unbounded; backpressure
// is not modelled, as an invocation's memory limit bounds everything anyway.
class ReadableStreamDefaultController {
  constructor(stream) { this._s = stream; }
  get desiredSize() { return this._s._state === "readable" ? 1 : 0; }
  enqueue(chunk) {
    const s = this._s;
    if (s._state !== "readable" || s._closeRequested) throw new TypeError("the stream is closed");
    if (s._readers.length) s._readers.shift().resolve({ value: chunk, done: false });
    else s._queue.push(chunk);
  }
  close() {
    const s = this._s;
    if (s._closeRequested) return;
    s._closeRequested = true;
    if (!s._queue.length) s._finish();
  }
  error(e) { this._s._fail(e); }
}

class ReadableStreamDefaultReader {
  constructor(stream) {
    if (stream._locked) throw new TypeError("the stream is locked to a reader");
    stream._locked = true;
    this._s = stream;
    this.closed = stream._closedPromise;
  }
  read() {
    const s = this._s;
    if (!s) return Promise.reject(new TypeError("the reader is released"));
    if (s._queue.length) {
      const value = s._queue.shift();
      if (!s._queue.length && s._closeRequested) s._finish();
      else s._pullIfNeeded();
      return Promise.resolve({ value, done: false });
    }
    if (s._state === "closed") return Promise.resolve({ value: undefined, done: true });
    if (s._state === "errored") return Promise.reject(s._error);
    return new Promise((resolve, reject) => {
      s._readers.push({ resolve, reject });
      s._pullIfNeeded();
    });
  }
  releaseLock() { if (this._s) { this._s._locked = false; this._s = null; } }
  cancel(reason) { return this._s ? this._s.cancel(reason, true) : Promise.resolve(); }
}

class ReadableStream {
  constructor(source = {}, strategy) {
    this._queue = [];
    this._readers = [];
    this._state = "readable";
    this._locked = false;
    this._closeRequested = false;
    this._source = source;
    this._pulling = false;
    this._closedPromise = new Promise((res, rej) => { this._closedResolve = res; this._closedReject = rej; });
    this._closedPromise.catch(() => {});
    this._controller = new ReadableStreamDefaultController(this);
    this._started = Promise.resolve(source.start ? source.start(this._controller) : undefined);
    this._started.then(() => this._pullIfNeeded(), (e) => this._fail(e));
  }
  _finish() {
    if (this._state !== "readable") return;
    this._state = "closed";
    for (const r of this._readers.splice(0)) r.resolve({ value: undefined, done: true });
    this._closedResolve();
  }
  _fail(e) {
    if (this._state !== "readable") return;
    this._state = "errored";
    this._error = e;
    this._queue = [];
    for (const r of this._readers.splice(0)) r.reject(e);
    this._closedReject(e);
  }
  _pullIfNeeded() {
    if (!this._source.pull || this._pulling || this._state !== "readable" || this._closeRequested) return;
    if (this._queue.length && !this._readers.length) return;
    this._pulling = true;
    this._started.then(() => this._source.pull(this._controller)).then(
      () => { this._pulling = false; if (this._readers.length) this._pullIfNeeded(); },
      (e) => this._fail(e));
  }
  get locked() { return this._locked; }
  getReader(opts) {
    if (opts && opts.mode === "byob") throw new TypeError("byob readers are not supported");
    return new ReadableStreamDefaultReader(this);
  }
  cancel(reason, fromReader) {
    if (this._locked && !fromReader) return Promise.reject(new TypeError("the stream is locked"));
    this._queue = [];
    this._finish();
    return Promise.resolve(this._source.cancel ? this._source.cancel(reason) : undefined);
  }
  tee() {
    const reader = this.getReader();
    let c1, c2;
    const pull = () => reader.read().then(({ value, done }) => {
      if (done) { c1.close(); c2.close(); return; }
      c1.enqueue(value);
      c2.enqueue(value);
    });
    return [new ReadableStream({ start: (c) => { c1 = c; }, pull }), new ReadableStream({ start: (c) => { c2 = c; }, pull })];
  }
  async pipeTo(dest, opts = {}) {
    const reader = this.getReader();
    const writer = dest.getWriter();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        await writer.write(value);
      }
      if (!opts.preventClose) await writer.close();
    } catch (e) {
      if (!opts.preventAbort) await writer.abort(e);
      throw e;
    } finally {
      reader.releaseLock();
      writer.releaseLock();
    }
  }
  pipeThrough(pair, opts) {
    this.pipeTo(pair.writable, opts).catch(() => {});
    return pair.readable;
  }
  async *values(opts = {}) {
    const reader = this.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      if (!opts.preventCancel) reader.cancel();
      reader.releaseLock();
    }
  }
  [Symbol.asyncIterator](opts) { return this.values(opts); }
  static from(iterable) {
    const it = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    return new ReadableStream({
      async pull(c) {
        const { value, done } = await it.next();
        if (done) c.close();
        else c.enqueue(value);
      },
    });
  }
}

class WritableStreamDefaultWriter {
  constructor(stream) {
    if (stream._locked) throw new TypeError("the stream is locked to a writer");
    stream._locked = true;
    this._s = stream;
    this.closed = stream._closed;
    this.ready = Promise.resolve();
  }
  get desiredSize() { return 1; }
  write(chunk) { return this._s._enqueue(() => this._s._sink.write && this._s._sink.write(chunk, this._s._controller)); }
  close() { return this._s._enqueue(() => this._s._sink.close && this._s._sink.close()).then(() => this._s._closedResolve()); }
  abort(reason) { return Promise.resolve(this._s._sink.abort && this._s._sink.abort(reason)); }
  releaseLock() { if (this._s) { this._s._locked = false; this._s = null; } }
}
class WritableStream {
  constructor(sink = {}) {
    this._sink = sink;
    this._locked = false;
    this._controller = { error: (e) => { this._err = e; }, signal: new AbortController().signal };
    this._closed = new Promise((res) => { this._closedResolve = res; });
    this._chain = Promise.resolve(sink.start ? sink.start(this._controller) : undefined);
  }
  _enqueue(fn) {
    this._chain = this._chain.then(() => { if (this._err) throw this._err; return fn(); });
    return this._chain;
  }
  get locked() { return this._locked; }
  getWriter() { return new WritableStreamDefaultWriter(this); }
  close() { return this.getWriter().close(); }
  abort(reason) { return Promise.resolve(this._sink.abort && this._sink.abort(reason)); }
}

class TransformStream {
  constructor(transformer = {}) {
    let rc;
    this.readable = new ReadableStream({ start: (c) => { rc = c; } });
    const controller = {
      enqueue: (chunk) => rc.enqueue(chunk),
      error: (e) => rc.error(e),
      terminate: () => rc.close(),
      get desiredSize() { return 1; },
    };
    const started = Promise.resolve(transformer.start ? transformer.start(controller) : undefined);
    this.writable = new WritableStream({
      write: (chunk) => started.then(() => (transformer.transform ? transformer.transform(chunk, controller) : controller.enqueue(chunk))),
      close: () => started.then(() => transformer.flush && transformer.flush(controller)).then(() => rc.close()),
      abort: (e) => rc.error(e),
    });
  }
}

class TextEncoderStream extends TransformStream {
  constructor() {
    const enc = new TextEncoder();
    super({ transform: (chunk, c) => c.enqueue(enc.encode(chunk)) });
  }
  get encoding() { return "utf-8"; }
}
class TextDecoderStream extends TransformStream {
  constructor(label, opts) {
    const dec = new TextDecoder(label, opts);
    super({
      transform: (chunk, c) => { const s = dec.decode(chunk, { stream: true }); if (s) c.enqueue(s); },
      flush: (c) => { const s = dec.decode(); if (s) c.enqueue(s); },
    });
  }
  get encoding() { return "utf-8"; }
}
class ByteLengthQueuingStrategy {
  constructor(o) { this.highWaterMark = o.highWaterMark; }
  size(chunk) { return chunk.byteLength; }
}
class CountQueuingStrategy {
  constructor(o) { this.highWaterMark = o.highWaterMark; }
  size() { return 1; }
}
define("ReadableStream", ReadableStream);
define("ReadableStreamDefaultReader", ReadableStreamDefaultReader);
define("WritableStream", WritableStream);
define("WritableStreamDefaultWriter", WritableStreamDefaultWriter);
define("TransformStream", TransformStream);
define("TextEncoderStream", TextEncoderStream);
define("TextDecoderStream", TextDecoderStream);
define("ByteLengthQueuingStrategy", ByteLengthQueuingStrategy);
define("CountQueuingStrategy", CountQueuingStrategy);

// readAll drains a stream of byte chunks (or strings) into one Uint8Array.
async function readAll(stream) {
  const reader = stream.getReader();
  const parts = [];
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const b = typeof value === "string" ? new TextEncoder().encode(value) : toBytes(value, "a stream chunk");
    parts.push(b);
    n += b.length;
  }
  reader.releaseLock();
  return concatBytes(parts, n);
}
function concatBytes(parts, n) {
  if (n === undefined) n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(n);
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
}
