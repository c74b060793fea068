package jsrun

import (
	"testing"
)

// Each web API against its expected behaviour: the snippet is the body of an async function
// whose return value, as JSON (or a string as is), must equal want.
func TestWebAPIs(t *testing.T) {
	r := newTestRunner(Limits{})
	cases := []struct{ api, code, want string }{
		{"Headers", `
const h = new Headers({"Content-Type": "text/plain", "X-A": "1"});
h.append("x-a", "2"); h.append("Set-Cookie", "a=1"); h.append("set-cookie", "b=2");
let bad = ""; try { h.set("bad name", "v"); } catch (e) { bad = e.constructor.name; }
h.delete("content-type");
return [h.get("X-A"), h.has("content-type"), [...h], h.getSetCookie(), bad, new Headers([["k", " v "]]).get("k")];`,
			`["1, 2",false,[["set-cookie","a=1"],["set-cookie","b=2"],["x-a","1, 2"]],["a=1","b=2"],"TypeError","v"]`},
		{"Request", `
const r = new Request("https://x.test/p?q=1", {method: "post", headers: {"x": "y"}, body: JSON.stringify({a: 1})});
const c = r.clone();
const j = await r.json();
let used = ""; try { await r.text(); } catch (e) { used = e.message; }
let getBody = ""; try { new Request("https://x.test/", {method: "GET", body: "x"}); } catch (e) { getBody = e.constructor.name; }
const copy = new Request(c, {headers: {"z": "1"}});
return [r.method, r.url, r.headers.get("content-type"), j, used, await copy.text(), copy.headers.get("z"), getBody, r.bodyUsed];`,
			`["POST","https://x.test/p?q=1","text/plain;charset=UTF-8",{"a":1},"Body has already been used","{\"a\":1}","1","TypeError",true]`},
		{"Response", `
const a = new Response("hé", {status: 201, statusText: "Made", headers: {"x-y": "z"}});
const j = Response.json({ok: true}, {status: 202});
const rd = Response.redirect("https://x.test/next", 301);
let badRedirect = ""; try { Response.redirect("https://x.test/", 200); } catch (e) { badRedirect = e.constructor.name; }
let immutable = ""; try { rd.headers.set("x", "1"); } catch (e) { immutable = e.constructor.name; }
const buf = await new Response(new Uint8Array([1, 2, 255])).arrayBuffer();
const cl = a.clone();
return [a.status, a.statusText, a.ok, await a.text(), await cl.text(), j.status, j.headers.get("content-type"), await j.json(),
  rd.status, rd.headers.get("location"), badRedirect, immutable, [...new Uint8Array(buf)], Response.error().type, new Response(null, {status: 404}).ok,
  (await new Response(new Blob(["b"], {type: "text/x"})).blob()).type];`,
			`[201,"Made",true,"hé","hé",202,"application/json",{"ok":true},301,"https://x.test/next","RangeError","TypeError",[1,2,255],"error",false,"text/x"]`},
		{"Response.formData", `
const fd = new FormData(); fd.append("event", '{"type":"x"}'); fd.append("file", new Blob(["abc"], {type: "text/plain"}), "a.txt");
const back = await new Response(fd).formData();
const url = await new Response("a=1&b=x+y", {headers: {"content-type": "application/x-www-form-urlencoded"}}).formData();
const f = back.get("file");
return [back.get("event"), f instanceof File, f.name, f.type, await f.text(), url.get("b")];`,
			`["{\"type\":\"x\"}",true,"a.txt","text/plain","abc","x y"]`},
		{"FormData", `
const f = new FormData(); f.append("a", "1"); f.append("a", "2"); f.set("b", "3"); f.append("c", new Blob(["x"]));
const names = []; f.forEach((v, k) => names.push(k));
f.delete("b");
return [f.get("a"), f.getAll("a"), f.has("b"), names, f.get("c").name, [...f.keys()]];`,
			`["1",["1","2"],false,["a","a","b","c"],"blob",["a","a","c"]]`},
		{"Blob and File", `
const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"])], {type: "Text/Plain"});
const f = new File(["xyz"], "n.txt", {type: "text/plain", lastModified: 5});
const s = b.slice(1, 3);
const chunks = []; for await (const c of b.stream()) chunks.push(...c);
return [b.size, b.type, await b.text(), await s.text(), f.name, f.lastModified, f.size, f instanceof Blob, chunks.length, [...new Uint8Array(await b.arrayBuffer())]];`,
			`[4,"text/plain","abcd","bc","n.txt",5,3,true,4,[97,98,99,100]]`},
		{"URL", `
const u = new URL("HTTPS://User:pw@Example.COM:443/a/b?x=1&y=2#frag");
const rel = new URL("../c?z=3", "https://h.test/a/b/");
let bad = ""; try { new URL("not a url"); } catch (e) { bad = e.constructor.name; }
const m = new URL("https://h.test/p");
m.searchParams.append("k", "a b"); m.pathname = "/q"; m.hash = "h";
return [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, u.searchParams.get("y"),
  rel.href, bad, m.href, URL.canParse("https://ok.test"), URL.canParse("nope"), new URL("http://h.test:8080").port, String(new URL("https://h.test"))];`,
			`["https://User:pw@example.com/a/b?x=1&y=2#frag","https:","User","pw","example.com","example.com","","/a/b","?x=1&y=2","#frag","https://example.com","2","https://h.test/a/c?z=3","TypeError","https://h.test/q?k=a+b#h",true,false,"8080","https://h.test/"]`},
		{"URLSearchParams", `
const p = new URLSearchParams("?a=1&b=x%20y&a=3&c=d+e&e");
p.append("f", "é&=+"); p.set("a", "9"); p.sort();
const o = new URLSearchParams({k: "v"}); const arr = new URLSearchParams([["x", "1"]]);
return [p.get("b"), p.get("c"), p.get("e"), p.getAll("a"), p.toString(), o.toString(), arr.has("x"), p.size, [...p.keys()]];`,
			`["x y","d e","",["9"],"a=9&b=x+y&c=d+e&e=&f=%C3%A9%26%3D%2B","k=v",true,5,["a","b","c","e","f"]]`},
		{"TextEncoder and TextDecoder", `
const e = new TextEncoder().encode("aé€😀");
const d = new TextDecoder().decode(e);
const bom = new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]));
const lossy = new TextDecoder().decode(new Uint8Array([0x41, 0xff, 0x42]));
let fatal = ""; try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xff])); } catch (e2) { fatal = e2.constructor.name; }
const into = new Uint8Array(2); const res = new TextEncoder().encodeInto("abc", into);
const sd = new TextDecoder(); const streamed = sd.decode(e.subarray(0, 4), {stream: true}) + "|" + sd.decode(e.subarray(4, 8), {stream: true}) + "|" + sd.decode(e.subarray(8));
return [[...e], d, bom, [lossy.length, lossy.charCodeAt(1)], fatal, res.written, new TextEncoder().encoding, streamed];`,
			`[[97,195,169,226,130,172,240,159,152,128],"aé€😀","A",[3,65533],"TypeError",2,"utf-8","aé|€|😀"]`},
		{"atob and btoa", `
let bad = ""; try { btoa("€"); } catch (e) { bad = e.name; }
let badIn = ""; try { atob("*"); } catch (e) { badIn = e.name; }
return [btoa("hello"), atob("aGVsbG8="), atob("aGVsbG8"), btoa(String.fromCharCode(0, 255)), bad, badIn];`,
			`["aGVsbG8=","hello","hello","AP8=","InvalidCharacterError","InvalidCharacterError"]`},
		{"setTimeout and clearTimeout", `
const order = [];
const t = setTimeout(() => order.push("cleared"), 5);
clearTimeout(t);
// "late" comes 300ms after the interval's second tick is due: a loaded machine delays a tick
// (the next is due 2ms after the last ran), and 20ms once let "late" pass it.
setTimeout((x) => order.push(x), 300, "late");
setTimeout(() => order.push("early"), 1);
let n = 0; const iv = setInterval(() => { order.push("tick"); if (++n === 2) clearInterval(iv); }, 2);
const start = Date.now();
await new Promise((ok) => setTimeout(ok, 320));
return [order.join(","), Date.now() - start >= 315];`,
			`["early,tick,tick,late",true]`},
		{"AbortController and AbortSignal.timeout", `
const c = new AbortController(); let fired = 0;
c.signal.addEventListener("abort", () => fired++); c.signal.onabort = () => fired++;
c.abort(); c.abort();
const t = AbortSignal.timeout(10);
const before = t.aborted;
await new Promise((ok) => t.addEventListener("abort", ok));
let thrown = ""; try { t.throwIfAborted(); } catch (e) { thrown = e.name; }
let fetchAborted = ""; try { await fetch("https://x.test/", {signal: AbortSignal.abort()}); } catch (e) { fetchAborted = e.name; }
return [c.signal.aborted, c.signal.reason.name, fired, before, t.aborted, thrown, fetchAborted, AbortSignal.any([c.signal]).aborted];`,
			`[true,"AbortError",2,false,true,"TimeoutError","AbortError",true]`},
		{"structuredClone", `
const src = {d: new Date(5), m: new Map([["k", {v: 1}]]), s: new Set([1]), u: new Uint8Array([1, 2]), n: [1, {x: 2}], re: /a/g};
src.self = src;
const c = structuredClone(src);
let fn = ""; try { structuredClone({f() {}}); } catch (e) { fn = e.name; }
return [c !== src, c.self === c, c.d instanceof Date && c.d.getTime(), c.m.get("k").v, c.m.get("k") !== src.m.get("k"), c.s.has(1), [...c.u], c.u.buffer !== src.u.buffer, c.n[1].x, c.re.flags, fn];`,
			`[true,true,5,1,true,true,[1,2],true,2,"g","DataCloneError"]`},
		{"crypto.getRandomValues and crypto.randomUUID", `
const a = crypto.getRandomValues(new Uint8Array(32)); const b = crypto.getRandomValues(new Uint32Array(4));
let big = ""; try { crypto.getRandomValues(new Uint8Array(70000)); } catch (e) { big = e.name; }
const ids = new Set(); for (let i = 0; i < 50; i++) ids.add(crypto.randomUUID());
const id = crypto.randomUUID();
return [a.some((x) => x !== 0), b.length, big, ids.size, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)];`,
			`[true,4,"QuotaExceededError",50,true]`},
		{"web streams", `
const rs = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("a")); c.enqueue(new TextEncoder().encode("b")); c.close(); } });
const text = await new Response(rs.pipeThrough(new TransformStream({ transform(chunk, c) { c.enqueue(new TextEncoder().encode(new TextDecoder().decode(chunk).toUpperCase())); } }))).text();
let i = 0; const pulled = new ReadableStream({ pull(c) { if (i < 3) c.enqueue(String(i++)); else c.close(); } });
const parts = []; for await (const p of pulled) parts.push(p);
const dec = new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([0xe2, 0x82])); c.enqueue(new Uint8Array([0xac])); c.close(); } })).body.pipeThrough(new TextDecoderStream());
let euro = ""; for await (const s of dec) euro += s;
const [t1, t2] = new Response("tee").body.tee();
return [text, parts.join(""), euro, await new Response(t1).text(), await new Response(t2).text(), typeof WritableStream, new Response("x").body instanceof ReadableStream];`,
			`["AB","012","€","tee","tee","function",true]`},
		{"Intl", `
const d = new Date(Date.UTC(2026, 0, 2, 15, 4, 5));
return [new Intl.NumberFormat("en-US").format(1234.5), d.toLocaleDateString("en-US"), new Intl.DateTimeFormat("en-US", {hour: "numeric", minute: "2-digit"}).format(d), (12.5).toLocaleString("en-US", {style: "currency", currency: "USD"})];`,
			`["1,234.5","1/2/2026","3:04 PM","$12.50"]`},
		{"Intl loaded by a toLocale method first", `
return [(1234567.891).toLocaleString("en-US"), new Date(0).toLocaleTimeString("en-US"), typeof Intl.DateTimeFormat, 10n.toLocaleString("en-US")];`,
			`["1,234,567.891","12:00:00 AM","function","10"]`},
		{"queueMicrotask and performance", `
const order = []; queueMicrotask(() => order.push("micro")); order.push("sync"); await null; await null;
return [order.join(","), typeof performance.now(), performance.now() >= 0];`,
			`["sync,micro","number",true]`},
	}
	for _, c := range cases {
		t.Run(c.api, func(t *testing.T) {
			if got := mustEval(t, r, c.code); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}
