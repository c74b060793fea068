// URL (parsed by Go's net/url, serialised the WHATWG way) and URLSearchParams.
function formEncode(s) {
  return encodeURIComponent(s).replace(/%20/g, "+").replace(/[!'()~]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}
function formDecode(s) {
  s = s.replace(/\+/g, " ");
  try {
    return decodeURIComponent(s);
  } catch (e) {
    // Malformed escapes stay as they are, as the standard's percent-decode does.
    return s.replace(/%([0-9A-Fa-f]{2})/g, (m, h) => { try { return decodeURIComponent(m); } catch (e2) { return m; } });
  }
}

class URLSearchParams {
  constructor(init = "") {
    this._list = [];
    this._url = null;
    if (init instanceof URLSearchParams) this._list = init._list.map((p) => p.slice());
    else if (typeof init === "object" && init !== null) {
      if (typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) throw new TypeError("URLSearchParams: each pair must have two items");
          this._list.push([String(p[0]), String(p[1])]);
        }
      } else {
        for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
      }
    } else this._parse(String(init));
  }
  _parse(s) {
    this._list = [];
    if (s.startsWith("?")) s = s.slice(1);
    for (const part of s.split("&")) {
      if (!part) continue;
      const i = part.indexOf("=");
      const k = i < 0 ? part : part.slice(0, i);
      const v = i < 0 ? "" : part.slice(i + 1);
      this._list.push([formDecode(k), formDecode(v)]);
    }
  }
  _update() {
    if (this._url) {
      const s = this.toString();
      this._url._setSearch(s ? "?" + s : "");
    }
  }
  get size() { return this._list.length; }
  append(k, v) { this._list.push([String(k), String(v)]); this._update(); }
  delete(k, v) {
    k = String(k);
    this._list = this._list.filter((p) => !(p[0] === k && (v === undefined || p[1] === String(v))));
    this._update();
  }
  get(k) { const p = this._list.find((p) => p[0] === String(k)); return p ? p[1] : null; }
  getAll(k) { return this._list.filter((p) => p[0] === String(k)).map((p) => p[1]); }
  has(k, v) { return this._list.some((p) => p[0] === String(k) && (v === undefined || p[1] === String(v))); }
  set(k, v) {
    k = String(k);
    const i = this._list.findIndex((p) => p[0] === k);
    if (i < 0) this._list.push([k, String(v)]);
    else {
      this._list[i] = [k, String(v)];
      this._list = this._list.filter((p, j) => j <= i || p[0] !== k);
    }
    this._update();
  }
  sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._update(); }
  forEach(fn, thisArg) { for (const [k, v] of this._list) fn.call(thisArg, v, k, this); }
  *entries() { for (const p of this._list.slice()) yield p.slice(); }
  *keys() { for (const p of this._list.slice()) yield p[0]; }
  *values() { for (const p of this._list.slice()) yield p[1]; }
  [Symbol.iterator]() { return this.entries(); }
  toString() { return this._list.map(([k, v]) => formEncode(k) + "=" + formEncode(v)).join("&"); }
}
define("URLSearchParams", URLSearchParams);

class URL {
  constructor(input, base) {
    const hasBase = arguments.length > 1 && base !== undefined;
    this._set(JSON.parse(host("url.parse", String(input), hasBase ? String(base) : "", hasBase ? "1" : "")));
  }
  _set(p) {
    this._p = p;
    if (!this._sp) {
      this._sp = new URLSearchParams(p.search);
      this._sp._url = this;
    } else this._sp._parse(p.search);
  }
  _setSearch(s) {
    this._p = JSON.parse(host("url.parse", this._p.href.replace(/[?#].*$/, "") + s + this._p.hash, "", ""));
  }
  _rebuild(changes) {
    const p = Object.assign({}, this._p, changes);
    const auth = p.username || p.password ? p.username + (p.password ? ":" + p.password : "") + "@" : "";
    const slashes = p.origin !== "null" || p.host ? "//" : "";
    const href = p.protocol + slashes + auth + p.host + p.pathname + p.search + p.hash;
    this._set(JSON.parse(host("url.parse", href, "", "")));
  }
  static canParse(input, base) {
    try { new URL(input, base); return true; } catch (e) { return false; }
  }
  static parse(input, base) {
    try { return new URL(input, base); } catch (e) { return null; }
  }
  get href() { return this._p.href; }
  set href(v) { this._set(JSON.parse(host("url.parse", String(v), "", ""))); }
  get origin() { return this._p.origin; }
  get protocol() { return this._p.protocol; }
  set protocol(v) { v = String(v); this._rebuild({ protocol: v.endsWith(":") ? v : v + ":" }); }
  get username() { return this._p.username; }
  set username(v) { this._rebuild({ username: encodeURIComponent(String(v)) }); }
  get password() { return this._p.password; }
  set password(v) { this._rebuild({ password: encodeURIComponent(String(v)) }); }
  get host() { return this._p.host; }
  set host(v) { this._rebuild({ host: String(v) }); }
  get hostname() { return this._p.hostname; }
  set hostname(v) { this._rebuild({ host: String(v) + (this._p.port ? ":" + this._p.port : "") }); }
  get port() { return this._p.port; }
  set port(v) { v = String(v); this._rebuild({ host: this._p.hostname + (v ? ":" + v : "") }); }
  get pathname() { return this._p.pathname; }
  set pathname(v) { v = String(v); this._rebuild({ pathname: v.startsWith("/") ? v : "/" + v }); }
  get search() { return this._p.search === "?" ? "" : this._p.search; }
  set search(v) { v = String(v); this._rebuild({ search: v === "" ? "" : v.startsWith("?") ? v : "?" + v }); }
  get searchParams() { return this._sp; }
  get hash() { return this._p.hash === "#" ? "" : this._p.hash; }
  set hash(v) { v = String(v); this._rebuild({ hash: v === "" ? "" : v.startsWith("#") ? v : "#" + v }); }
  toString() { return this.href; }
  toJSON() { return this.href; }
}
define("URL", URL);
