// fetch: the request is made by Go through docsd's outbound policy (see fetchop.go).
define("fetch", async function fetch(input, init) {
  const req = new Request(input, init);
  if (req.signal && req.signal.aborted) throw req.signal.reason;
  const bytes = req._stream || req._bytes ? await req._consume() : null;
  const meta = JSON.stringify({ method: req.method, url: req.url, headers: [...req.headers], redirect: req.redirect, hasBody: bytes !== null });
  const out = JSON.parse(host("fetch", meta, bytes ? bytesToBinary(bytes) : ""));
  if (req.signal && req.signal.aborted) throw req.signal.reason;
  const nullBody = out.status === 204 || out.status === 205 || out.status === 304 || req.method === "HEAD";
  const res = new Response(nullBody ? null : binaryToBytes(out.body), { status: out.status < 200 ? 200 : out.status, statusText: out.statusText, headers: out.headers });
  res._status = out.status;
  res._url = out.url;
  res._redirected = out.redirected;
  res._type = "basic";
  return res;
});
