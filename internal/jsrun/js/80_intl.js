// Intl on first use: the first read of Intl, or call of a toLocale* method that ECMA-402
// defines through it, puts the originals back and has Go install the real one (host "intl").
const localeMethods = [[Date.prototype, "toLocaleString"], [Date.prototype, "toLocaleDateString"], [Date.prototype, "toLocaleTimeString"], [Number.prototype, "toLocaleString"], [BigInt.prototype, "toLocaleString"]];
const localeOriginals = localeMethods.map(([proto, name]) => Object.getOwnPropertyDescriptor(proto, name));
let intlLoaded = false;
function loadIntl() {
  if (intlLoaded) return;
  intlLoaded = true;
  delete G.Intl;
  localeMethods.forEach(([proto, name], i) => {
    if (localeOriginals[i]) Object.defineProperty(proto, name, localeOriginals[i]);
    else delete proto[name];
  });
  host("intl");
}
for (const [proto, name] of localeMethods) {
  Object.defineProperty(proto, name, {
    value: function (...args) { loadIntl(); return this[name](...args); },
    writable: true, configurable: true, enumerable: false,
  });
}
Object.defineProperty(G, "Intl", {
  get() { loadIntl(); return G.Intl; },
  set(v) { loadIntl(); G.Intl = v; },
  configurable: true, enumerable: false,
});
