// Headers, and the Body shared by Request and Response. Bodies are held whole in memory (a
// stream given as a body is read when the body is consumed).
const FORBIDDEN_NAME = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;

class Headers {
  constructor(init) {
    this._map = new Map(); // lower-case name -> [values]
    this._guard = "none";
    if (init instanceof Headers) {
      for (const [k, vs] of init._map) this._map.set(k, vs.slice());
    } else if (init && typeof init === "object") {
      if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) throw new TypeError("Headers: each pair must have two items");
          this.append(p[0], p[1]);
        }
      } else {
        for (const k of Object.keys(init)) this.append(k, init[k]);
      }
    }
  }
  _name(n) {
    n = String(n);
    if (!n || FORBIDDEN_NAME.test(n)) throw new TypeError(`Headers: invalid header name "${n}"`);
    return n.toLowerCase();
  }
  _check() { if (this._guard === "immutable") throw new TypeError("Headers are immutable"); }
  append(n, v) {
    this._check();
    n = this._name(n);
    v = String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    if (/[\0\r\n]/.test(v)) throw new TypeError(`Headers: invalid value for "${n}"`);
    const vs = this._map.get(n);
    if (vs) vs.push(v);
    else this._map.set(n, [v]);
  }
  set(n, v) { this._check(); n = this._name(n); this._map.delete(n); this.append(n, v); }
  delete(n) { this._check(); this._map.delete(this._name(n)); }
  get(n) {
    const vs = this._map.get(this._name(n));
    return vs ? vs.join(", ") : null;
  }
  getSetCookie() { return (this._map.get("set-cookie") || []).slice(); }
  has(n) { return this._map.has(this._name(n)); }
  *entries() {
    const names = [...this._map.keys()].sort();
    for (const n of names) {
      if (n === "set-cookie") for (const v of this._map.get(n)) yield [n, v];
      else yield [n, this._map.get(n).join(", ")];
    }
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  forEach(fn, thisArg) { for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this); }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return "Headers"; }
}
define("Headers", Headers);

// extractBody turns a body init into bytes (or a stream) and the content type it implies.
function extractBody(init) {
  if (init === null || init === undefined) return { bytes: null, type: null };
  if (typeof init === "string") return { bytes: utf8.encode(init), type: "text/plain;charset=UTF-8" };
  if (init instanceof URLSearchParams) return { bytes: utf8.encode(init.toString()), type: "application/x-www-form-urlencoded;charset=UTF-8" };
  if (init instanceof FormData) return encodeMultipart(init);
  if (init instanceof Blob) return { bytes: init._bytes, type: init.type || null };
  if (init instanceof ArrayBuffer || ArrayBuffer.isView(init)) return { bytes: toBytes(init).slice(), type: null };
  if (init instanceof ReadableStream) return { stream: init, type: null };
  return { bytes: utf8.encode(String(init)), type: "text/plain;charset=UTF-8" };
}

const BodyMixin = {
  _initBody(init, headers) {
    const b = extractBody(init);
    this._bytes = b.bytes === undefined ? null : b.bytes;
    this._stream = b.stream || null;
    this._bodyUsed = false;
    if (b.type && !headers.has("content-type")) headers.set("content-type", b.type);
  },
  get body() {
    if (this._stream) return this._stream;
    if (this._bytes === null) return null;
    const bytes = this._bytes;
    this._stream = new ReadableStream({ start(c) { if (bytes.length) c.enqueue(bytes); c.close(); } });
    this._bytes = null;
    return this._stream;
  },
  get bodyUsed() { return this._bodyUsed || !!(this._stream && this._stream._locked && this._stream._state !== "readable"); },
  async _consume() {
    if (this._bodyUsed) throw new TypeError("Body has already been used");
    this._bodyUsed = true;
    if (this._stream) return readAll(this._stream);
    return this._bytes || new Uint8Array(0);
  },
  async arrayBuffer() { return copyBuffer(await this._consume()); },
  async bytes() { return (await this._consume()).slice(); },
  async text() { return new TextDecoder().decode(await this._consume()); },
  async json() { return JSON.parse(await this.text()); },
  async blob() {
    const b = new Blob([await this._consume()], { type: this.headers.get("content-type") || "" });
    return b;
  },
  async formData() {
    const type = this.headers.get("content-type") || "";
    const bytes = await this._consume();
    const fd = new FormData();
    if (/^multipart\/form-data/i.test(type)) {
      for (const f of JSON.parse(host("multipart.parse", type, bytesToBinary(bytes)))) {
        if (f.filename !== undefined) {
          fd.append(f.name, new File([binaryToBytes(f.value)], f.filename, { type: f.type || "" }));
        } else fd.append(f.name, f.value);
      }
      return fd;
    }
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) fd.append(k, v);
      return fd;
    }
    throw new TypeError(`formData: the body's content type "${type}" is neither multipart/form-data nor application/x-www-form-urlencoded`);
  },
  _cloneBody(target) {
    if (this.bodyUsed) throw new TypeError("Body has already been used");
    if (this._stream) {
      const [a, b] = this._stream.tee();
      this._stream = a;
      target._stream = b;
      target._bytes = null;
    } else {
      target._bytes = this._bytes;
      target._stream = null;
    }
    target._bodyUsed = false;
  },
};
function mixBody(cls) {
  for (const k of Object.getOwnPropertyNames(BodyMixin)) {
    Object.defineProperty(cls.prototype, k, Object.getOwnPropertyDescriptor(BodyMixin, k));
  }
}

const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"];
class Request {
  constructor(input, init = {}) {
    let src = null;
    if (input instanceof Request) src = input;
    const url = src ? src.url : new URL(String(input)).href;
    let method = init.method !== undefined ? String(init.method) : src ? src.method : "GET";
    if (METHODS.includes(method.toUpperCase())) method = method.toUpperCase();
    this._url = url;
    this._method = method;
    this._headers = new Headers(init.headers !== undefined ? init.headers : src ? src.headers : undefined);
    this._redirect = init.redirect || (src ? src.redirect : "follow");
    this._signal = init.signal || (src ? src.signal : new AbortController().signal);
    this.cf = init.cf;
    let body = init.body;
    if (body === undefined && src) {
      if (src.bodyUsed) throw new TypeError("Request: the source's body has already been used");
      body = src._stream || src._bytes;
      src._bodyUsed = true;
    }
    if ((method === "GET" || method === "HEAD") && body !== null && body !== undefined) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    this._initBody(body, this._headers);
  }
  get url() { return this._url; }
  get method() { return this._method; }
  get headers() { return this._headers; }
  get redirect() { return this._redirect; }
  get signal() { return this._signal; }
  get credentials() { return "same-origin"; }
  get mode() { return "cors"; }
  get cache() { return "default"; }
  get integrity() { return ""; }
  get keepalive() { return false; }
  get referrer() { return "about:client"; }
  get destination() { return ""; }
  clone() {
    const r = Object.create(Request.prototype);
    Object.assign(r, { _url: this._url, _method: this._method, _headers: new Headers(this._headers), _redirect: this._redirect, _signal: this._signal, cf: this.cf });
    this._cloneBody(r);
    return r;
  }
  get [Symbol.toStringTag]() { return "Request"; }
}
mixBody(Request);
define("Request", Request);

const STATUS_TEXT = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 409: "Conflict", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable" };
class Response {
  constructor(body = null, init = {}) {
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`Response: status ${init.status} is not in the range 200 to 599`);
    }
    if ((status === 204 || status === 205 || status === 304) && body !== null && body !== undefined) {
      throw new TypeError(`Response with null body status ${status} cannot have body`);
    }
    this._status = status;
    this._statusText = init.statusText !== undefined ? String(init.statusText) : "";
    this._headers = new Headers(init.headers);
    this._type = "default";
    this._url = "";
    this._redirected = false;
    this.webSocket = null;
    this._initBody(body, this._headers);
  }
  get status() { return this._status; }
  get statusText() { return this._statusText; }
  get ok() { return this._status >= 200 && this._status < 300; }
  get headers() { return this._headers; }
  get type() { return this._type; }
  get url() { return this._url; }
  get redirected() { return this._redirected; }
  clone() {
    const r = Object.create(Response.prototype);
    Object.assign(r, { _status: this._status, _statusText: this._statusText, _headers: new Headers(this._headers), _type: this._type, _url: this._url, _redirected: this._redirected, webSocket: null });
    this._cloneBody(r);
    return r;
  }
  static json(data, init = {}) {
    const body = JSON.stringify(data);
    if (body === undefined) throw new TypeError("Response.json: the value is not JSON-serialisable");
    const headers = new Headers(init.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new Response(body, Object.assign({}, init, { headers }));
  }
  static redirect(url, status = 302) {
    if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`Response.redirect: ${status} is not a redirect status`);
    const r = new Response(null, { status, headers: { location: new URL(String(url)).href } });
    r._headers._guard = "immutable";
    return r;
  }
  static error() {
    const r = new Response(null, { status: 200 });
    r._status = 0;
    r._type = "error";
    return r;
  }
  get [Symbol.toStringTag]() { return "Response"; }
}
mixBody(Response);
define("Response", Response);
