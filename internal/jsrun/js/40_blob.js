// Blob, File and FormData.
const utf8 = new TextEncoder();

function partBytes(p) {
  if (p instanceof Blob) return p._bytes;
  if (p instanceof ArrayBuffer || ArrayBuffer.isView(p)) return toBytes(p).slice();
  return utf8.encode(String(p));
}

class Blob {
  constructor(parts = [], opts = {}) {
    const list = [];
    for (const p of parts) list.push(partBytes(p));
    this._bytes = concatBytes(list);
    const t = opts.type === undefined ? "" : String(opts.type);
    this._type = /^[\x20-\x7e]*$/.test(t) ? t.toLowerCase() : "";
  }
  get size() { return this._bytes.length; }
  get type() { return this._type; }
  slice(start = 0, end = this.size, type = "") {
    const b = new Blob([], { type });
    b._bytes = this._bytes.slice(start, end);
    return b;
  }
  text() { return Promise.resolve(new TextDecoder().decode(this._bytes)); }
  arrayBuffer() { return Promise.resolve(copyBuffer(this._bytes)); }
  bytes() { return Promise.resolve(this._bytes.slice()); }
  stream() {
    const bytes = this._bytes.slice();
    return new ReadableStream({ start(c) { if (bytes.length) c.enqueue(bytes); c.close(); } });
  }
  get [Symbol.toStringTag]() { return "Blob"; }
}
class File extends Blob {
  constructor(parts, name, opts = {}) {
    if (arguments.length < 2) throw new TypeError("File needs 2 arguments");
    super(parts, opts);
    this._name = String(name);
    this._lastModified = opts.lastModified === undefined ? Date.now() : Number(opts.lastModified);
  }
  get name() { return this._name; }
  get lastModified() { return this._lastModified; }
  get [Symbol.toStringTag]() { return "File"; }
}
define("Blob", Blob);
define("File", File);

function formValue(value, filename) {
  if (value instanceof Blob) {
    if (!(value instanceof File) || filename !== undefined) {
      const f = new File([], filename !== undefined ? filename : value instanceof File ? value.name : "blob", { type: value.type });
      f._bytes = value._bytes;
      return f;
    }
    return value;
  }
  return String(value);
}
class FormData {
  constructor(form) {
    if (form !== undefined) throw new TypeError("FormData from a form element is not supported");
    this._list = [];
  }
  append(k, v, filename) { this._list.push([String(k), formValue(v, filename)]); }
  set(k, v, filename) {
    k = String(k);
    const i = this._list.findIndex((p) => p[0] === k);
    const entry = [k, formValue(v, filename)];
    if (i < 0) this._list.push(entry);
    else {
      this._list[i] = entry;
      this._list = this._list.filter((p, j) => j <= i || p[0] !== k);
    }
  }
  get(k) { const p = this._list.find((p) => p[0] === String(k)); return p ? p[1] : null; }
  getAll(k) { return this._list.filter((p) => p[0] === String(k)).map((p) => p[1]); }
  has(k) { return this._list.some((p) => p[0] === String(k)); }
  delete(k) { this._list = this._list.filter((p) => p[0] !== String(k)); }
  forEach(fn, thisArg) { for (const [k, v] of this._list) fn.call(thisArg, v, k, this); }
  *entries() { for (const p of this._list.slice()) yield p.slice(); }
  *keys() { for (const p of this._list.slice()) yield p[0]; }
  *values() { for (const p of this._list.slice()) yield p[1]; }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return "FormData"; }
}
define("FormData", FormData);

// encodeMultipart serialises FormData as a multipart/form-data body.
function encodeMultipart(fd) {
  const boundary = "----docsdFormBoundary" + bytesToBinary(crypto.getRandomValues(new Uint8Array(12))).split("").map((c) => (c.charCodeAt(0) % 36).toString(36)).join("");
  const esc = (s) => s.replace(/\r\n|\r|\n/g, "\r\n").replace(/"/g, "%22").replace(/\r?\n/g, "%0D%0A");
  const parts = [];
  for (const [k, v] of fd._list) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${esc(k)}"`;
    if (v instanceof File) {
      head += `; filename="${esc(v.name)}"\r\nContent-Type: ${v.type || "application/octet-stream"}\r\n\r\n`;
      parts.push(utf8.encode(head), v._bytes, utf8.encode("\r\n"));
    } else {
      parts.push(utf8.encode(head + "\r\n\r\n" + String(v).replace(/\r\n|\r|\n/g, "\r\n") + "\r\n"));
    }
  }
  parts.push(utf8.encode(`--${boundary}--\r\n`));
  return { bytes: concatBytes(parts), type: "multipart/form-data; boundary=" + boundary };
}
