// The "try it" panels of a published API reference page: each sends its operation, with the
// values the reader typed, from the reader's browser to the spec's server, and shows the
// answer's status, headers and body. Served by docsd from the site's origin; no eval.
(function () {
  "use strict";
  var TIMEOUT_MS = 30000;

  function show(panel, status, headers, body) {
    var answer = panel.querySelector(".openapi-tryit-answer");
    panel.querySelector(".openapi-tryit-status").textContent = status;
    panel.querySelector(".openapi-tryit-headers code").textContent = headers;
    panel.querySelector(".openapi-tryit-body code").textContent = body;
    answer.hidden = false;
  }

  function pretty(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (e) {
      return text;
    }
  }

  function send(panel, button) {
    var path = panel.getAttribute("data-path");
    var method = panel.getAttribute("data-method");
    var query = [];
    var headers = {};
    var inputs = panel.querySelectorAll("input[data-in]");
    for (var i = 0; i < inputs.length; i++) {
      var where = inputs[i].getAttribute("data-in");
      var name = inputs[i].getAttribute("data-name");
      var value = inputs[i].value;
      if (where === "path") {
        path = path.split("{" + name + "}").join(encodeURIComponent(value));
      } else if (where === "query" && value !== "") {
        query.push(encodeURIComponent(name) + "=" + encodeURIComponent(value));
      } else if (where === "header" && value !== "") {
        headers[name] = value;
      }
    }
    var target = panel.getAttribute("data-server") + path + (query.length ? "?" + query.join("&") : "");
    var init = { method: method, headers: headers, mode: "cors", credentials: "omit", redirect: "follow" };
    var body = panel.querySelector("textarea[data-body]");
    if (body && method !== "GET" && method !== "HEAD") {
      init.body = body.value;
      headers["Content-Type"] = body.getAttribute("data-body");
    }
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = null;
    if (controller) {
      init.signal = controller.signal;
      timer = setTimeout(function () { controller.abort(); }, TIMEOUT_MS);
    }
    button.disabled = true;
    show(panel, "Sending " + method + " " + target + " …", "", "");
    fetch(target, init).then(function (res) {
      var lines = [];
      res.headers.forEach(function (v, k) { lines.push(k + ": " + v); });
      return res.text().then(function (text) {
        show(panel, res.status + " " + res.statusText, lines.join("\n"), pretty(text));
      });
    }).catch(function (err) {
      show(panel, "The request failed: " + (err && err.message ? err.message : String(err)) +
        " (the server must allow this site's origin with CORS)", "", "");
    }).then(function () {
      if (timer) clearTimeout(timer);
      button.disabled = false;
    });
  }

  function start() {
    var panels = document.querySelectorAll(".openapi-tryit");
    for (var i = 0; i < panels.length; i++) {
      panels[i].hidden = false;
    }
    document.addEventListener("click", function (ev) {
      var button = ev.target && ev.target.closest ? ev.target.closest(".openapi-tryit-send") : null;
      if (!button) return;
      ev.preventDefault();
      send(button.closest(".openapi-tryit"), button);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
