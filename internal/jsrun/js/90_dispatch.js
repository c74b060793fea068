// The invocation: Go calls __docsd_start once, then drives promise jobs and timers until
// __docsd_state says "done", then reads __docsd_result.
let finished = false;
let result = null;

function describe(e) {
  if (e && typeof e === "object") return { name: String(e.name || "Error"), message: String(e.message), stack: String(e.stack || "") };
  return { name: "Error", message: "uncaught " + formatArg(e), stack: "" };
}

define("__docsd_start", function () {
  const { request, env, limits } = JSON.parse(host("request"));
  const waits = [];
  const ctx = {
    waitUntil(p) { waits.push(Promise.resolve(p)); },
    passThroughOnException() {},
  };
  (async () => {
    const mod = G.__docsdModule && G.__docsdModule.default;
    if (!mod || typeof mod.fetch !== "function") throw new TypeError("the script's default export has no fetch(request, env, ctx) function");
    const body = request.body === null || request.method === "GET" || request.method === "HEAD" ? null : binaryToBytes(request.body);
    const req = new Request(request.url, { method: request.method, headers: request.headers, body });
    const res = await mod.fetch(req, env, ctx);
    if (!(res instanceof Response)) throw new TypeError("the fetch handler did not return a Response");
    if (res.type === "error") throw new TypeError("the fetch handler returned Response.error()");
    const bytes = await res._consume();
    if (bytes.length > limits.responseBytes) {
      result = { error: { name: "ResponseLimit", message: `the response is larger than the limit of ${limits.responseBytes} bytes` } };
      return;
    }
    result = { status: res.status, headers: [...res.headers], body: bytesToBinary(bytes) };
  })().catch((e) => {
    result = { error: describe(e) };
  }).then(async () => {
    // ctx.waitUntil work, also what is added while waiting, within the invocation's limits.
    for (let i = 0; i < waits.length; i++) {
      try {
        await waits[i];
      } catch (e) {
        consoleObj.error("Uncaught (in waitUntil)", e);
      }
    }
    finished = true;
  });
});

define("__docsd_state", function () {
  if (finished) return "done";
  const d = nextTimerDelay();
  return d < 0 ? "idle" : "timer:" + d;
});

define("__docsd_result", function () {
  return JSON.stringify(result);
});
// The entry points Go calls stay the engine's: a script cannot replace them.
for (const name of ["__docsd_start", "__docsd_state", "__docsd_result", "__docsd_timers"]) {
  Object.defineProperty(G, name, { writable: false, configurable: false });
}
