// crypto.getRandomValues, crypto.randomUUID and crypto.subtle (SHA digests, HMAC, AES-GCM,
// RSASSA-PKCS1-v1_5), the operations done by Go's crypto.
function normAlg(a) {
  const o = typeof a === "string" ? { name: a } : Object.assign({}, a);
  const names = { "sha-1": "SHA-1", "sha-256": "SHA-256", "sha-384": "SHA-384", "sha-512": "SHA-512", hmac: "HMAC", "aes-gcm": "AES-GCM", "rsassa-pkcs1-v1_5": "RSASSA-PKCS1-v1_5" };
  const n = names[String(o.name).toLowerCase()];
  if (!n) throw new DOMException(`Unrecognized algorithm name: ${o.name}`, "NotSupportedError");
  o.name = n;
  if (o.hash !== undefined) o.hash = normAlg(o.hash);
  return o;
}

class CryptoKey {
  constructor(key, type, extractable, algorithm, usages, data) {
    if (key !== cryptoKeyKey) throw new TypeError("CryptoKey is not constructible");
    this.type = type;
    this.extractable = extractable;
    this.algorithm = algorithm;
    this.usages = usages;
    Object.defineProperty(this, "_data", { value: data });
  }
  get [Symbol.toStringTag]() { return "CryptoKey"; }
}
const cryptoKeyKey = {};
define("CryptoKey", CryptoKey);

function needUsage(key, usage, alg) {
  if (!(key instanceof CryptoKey)) throw new TypeError("the key is not a CryptoKey");
  if (!key.usages.includes(usage)) throw new DOMException(`the key does not allow "${usage}"`, "InvalidAccessError");
  if (key.algorithm.name !== alg.name) throw new DOMException(`the key is for ${key.algorithm.name}, not ${alg.name}`, "InvalidAccessError");
}

function base64urlToBinary(s) {
  s = String(s).replace(/-/g, "+").replace(/_/g, "/");
  return host("atob", s + "===".slice((s.length + 3) % 4));
}

// aesGCM is subtle.encrypt and subtle.decrypt: AES-GCM is the one cipher supported.
async function aesGCM(op, alg, key, data) {
  alg = normAlg(alg);
  needUsage(key, op, alg);
  if (alg.name !== "AES-GCM") throw new DOMException(`${op} does not support ${alg.name}`, "NotSupportedError");
  const aad = alg.additionalData ? bytesToBinary(toBytes(alg.additionalData)) : "";
  const iv = bytesToBinary(toBytes(alg.iv, "iv"));
  return copyBuffer(binaryToBytes(host("crypto.aes." + op, "", key._data, iv, aad, bytesToBinary(toBytes(data)), alg.tagLength || 128)));
}

const subtle = {
  async digest(alg, data) {
    alg = normAlg(alg);
    return copyBuffer(binaryToBytes(host("crypto.digest", alg.name, bytesToBinary(toBytes(data)))));
  },
  async importKey(format, keyData, alg, extractable, usages) {
    alg = normAlg(alg);
    usages = [...usages];
    let data;
    if (format === "raw") data = bytesToBinary(toBytes(keyData));
    else if (format === "jwk") {
      if (keyData.kty !== "oct") throw new DOMException("only oct JWKs (HMAC, AES) are supported", "NotSupportedError");
      data = base64urlToBinary(keyData.k);
    } else if (format === "pkcs8" || format === "spki") data = bytesToBinary(toBytes(keyData));
    else throw new DOMException(`key format "${format}" is not supported`, "NotSupportedError");
    switch (alg.name) {
      case "HMAC": {
        if (format !== "raw" && format !== "jwk") throw new DOMException("HMAC keys import as raw or jwk", "NotSupportedError");
        if (!alg.hash) throw new TypeError("HMAC importKey needs a hash");
        const algorithm = { name: "HMAC", hash: { name: alg.hash.name }, length: (alg.length || data.length * 8) };
        return new CryptoKey(cryptoKeyKey, "secret", !!extractable, algorithm, usages, data);
      }
      case "AES-GCM": {
        if (format !== "raw" && format !== "jwk") throw new DOMException("AES-GCM keys import as raw or jwk", "NotSupportedError");
        if (![16, 24, 32].includes(data.length)) throw new DOMException("an AES key is 128, 192 or 256 bits", "DataError");
        return new CryptoKey(cryptoKeyKey, "secret", !!extractable, { name: "AES-GCM", length: data.length * 8 }, usages, data);
      }
      case "RSASSA-PKCS1-v1_5": {
        if (format !== "pkcs8" && format !== "spki") throw new DOMException("RSA keys import as pkcs8 or spki", "NotSupportedError");
        if (!alg.hash) throw new TypeError("RSASSA-PKCS1-v1_5 importKey needs a hash");
        const type = format === "pkcs8" ? "private" : "public";
        host("crypto.rsa.check", alg.hash.name, data, type);
        return new CryptoKey(cryptoKeyKey, type, !!extractable, { name: alg.name, hash: { name: alg.hash.name } }, usages, data);
      }
    }
    throw new DOMException(`importKey does not support ${alg.name}`, "NotSupportedError");
  },
  async exportKey(format, key) {
    if (!key.extractable) throw new DOMException("the key is not extractable", "InvalidAccessError");
    if (format === "raw" && key.type === "secret") return copyBuffer(binaryToBytes(key._data));
    if ((format === "pkcs8" && key.type === "private") || (format === "spki" && key.type === "public")) return copyBuffer(binaryToBytes(key._data));
    if (format === "jwk" && key.type === "secret") {
      const k = host("btoa", key._data).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      return { kty: "oct", k, ext: true, key_ops: key.usages.slice() };
    }
    throw new DOMException(`exportKey does not support ${format} for this key`, "NotSupportedError");
  },
  async generateKey(alg, extractable, usages) {
    alg = normAlg(alg);
    if (alg.name === "HMAC") {
      const n = alg.length ? alg.length / 8 : { "SHA-1": 64, "SHA-256": 64, "SHA-384": 128, "SHA-512": 128 }[alg.hash.name];
      return subtle.importKey("raw", crypto.getRandomValues(new Uint8Array(n)), alg, extractable, usages);
    }
    if (alg.name === "AES-GCM") return subtle.importKey("raw", crypto.getRandomValues(new Uint8Array(alg.length / 8)), alg, extractable, usages);
    throw new DOMException(`generateKey does not support ${alg.name}`, "NotSupportedError");
  },
  async sign(alg, key, data) {
    alg = normAlg(alg);
    needUsage(key, "sign", alg);
    const d = bytesToBinary(toBytes(data));
    if (alg.name === "HMAC") return copyBuffer(binaryToBytes(host("crypto.hmac.sign", key.algorithm.hash.name, key._data, d)));
    if (alg.name === "RSASSA-PKCS1-v1_5") return copyBuffer(binaryToBytes(host("crypto.rsa.sign", key.algorithm.hash.name, key._data, d)));
    throw new DOMException(`sign does not support ${alg.name}`, "NotSupportedError");
  },
  async verify(alg, key, sig, data) {
    alg = normAlg(alg);
    needUsage(key, "verify", alg);
    const d = bytesToBinary(toBytes(data));
    const s = bytesToBinary(toBytes(sig));
    if (alg.name === "HMAC") return host("crypto.hmac.verify", key.algorithm.hash.name, key._data, d, s) === "true";
    if (alg.name === "RSASSA-PKCS1-v1_5") return host("crypto.rsa.verify", key.algorithm.hash.name, key._data, key.type, d, s) === "true";
    throw new DOMException(`verify does not support ${alg.name}`, "NotSupportedError");
  },
  encrypt(alg, key, data) { return aesGCM("encrypt", alg, key, data); },
  decrypt(alg, key, data) { return aesGCM("decrypt", alg, key, data); },
};

const crypto = {
  subtle,
  getRandomValues(arr) {
    if (!ArrayBuffer.isView(arr) || arr instanceof Float32Array || arr instanceof Float64Array || arr instanceof DataView) {
      throw new DOMException("getRandomValues takes an integer typed array", "TypeMismatchError");
    }
    const b = binaryToBytes(host("random", arr.byteLength));
    new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength).set(b);
    return arr;
  },
  randomUUID() { return host("uuid"); },
};
define("crypto", crypto);
define("SubtleCrypto", function SubtleCrypto() { throw new TypeError("SubtleCrypto is not constructible"); });
