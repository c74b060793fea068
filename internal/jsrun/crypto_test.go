package jsrun

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
)

// The script's hex helpers, shared by the cases below.
const hexJS = `
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));
const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const enc = new TextEncoder();
`

func TestSubtleDigestMatchesGo(t *testing.T) {
	r := newTestRunner(Limits{})
	got := mustEval(t, r, hexJS+`return hex(await crypto.subtle.digest("SHA-256", enc.encode("docsd")));`)
	sum := sha256.Sum256([]byte("docsd"))
	if got != hex.EncodeToString(sum[:]) {
		t.Fatalf("digest %s", got)
	}
}

func TestSubtleHMACSignatureVerifiedByGo(t *testing.T) {
	r := newTestRunner(Limits{})
	got := mustEval(t, r, hexJS+`
const key = await crypto.subtle.importKey("raw", enc.encode("the secret"), {name: "HMAC", hash: "SHA-256"}, false, ["sign", "verify"]);
const sig = await crypto.subtle.sign("HMAC", key, enc.encode("the message"));
const ok = await crypto.subtle.verify("HMAC", key, sig, enc.encode("the message"));
const bad = await crypto.subtle.verify("HMAC", key, sig, enc.encode("another message"));
let usage = ""; const vonly = await crypto.subtle.importKey("raw", enc.encode("k"), {name: "HMAC", hash: "SHA-256"}, false, ["verify"]);
try { await crypto.subtle.sign("HMAC", vonly, enc.encode("x")); } catch (e) { usage = e.name; }
return [hex(sig), ok, bad, key.algorithm.hash.name, key.type, usage].join(" ");`)
	m := hmac.New(sha256.New, []byte("the secret"))
	m.Write([]byte("the message"))
	want := hex.EncodeToString(m.Sum(nil)) + " true false SHA-256 secret InvalidAccessError"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestSubtleAESGCMRoundTripsWithGo(t *testing.T) {
	r := newTestRunner(Limits{})
	key := make([]byte, 32)
	rand.Read(key)
	iv := make([]byte, 12)
	rand.Read(iv)
	env := map[string]string{"key": hex.EncodeToString(key), "iv": hex.EncodeToString(iv)}
	out := mustEvalEnv(t, r, hexJS+`
const key = await crypto.subtle.importKey("raw", unhex(ENV.key), "AES-GCM", true, ["encrypt", "decrypt"]);
const ct = await crypto.subtle.encrypt({name: "AES-GCM", iv: unhex(ENV.iv), additionalData: enc.encode("aad")}, key, enc.encode("plain text"));
const pt = new TextDecoder().decode(await crypto.subtle.decrypt({name: "AES-GCM", iv: unhex(ENV.iv), additionalData: enc.encode("aad")}, key, ct));
const tampered = new Uint8Array(ct).slice(); tampered[0] ^= 1;
let err = ""; try { await crypto.subtle.decrypt({name: "AES-GCM", iv: unhex(ENV.iv), additionalData: enc.encode("aad")}, key, tampered); } catch (e) { err = e.name; }
const fromGo = new TextDecoder().decode(await crypto.subtle.decrypt({name: "AES-GCM", iv: unhex(ENV.iv)}, key, unhex(ENV.goCiphertext)));
return [hex(ct), pt, err, fromGo, hex(await crypto.subtle.exportKey("raw", key)) === ENV.key].join("|");`, withGoCiphertext(t, env, key, iv))
	parts := strings.Split(out, "|")
	if len(parts) != 5 {
		t.Fatalf("answer %q", out)
	}
	ct, _ := hex.DecodeString(parts[0])
	block, _ := aes.NewCipher(key)
	g, _ := cipher.NewGCM(block)
	pt, err := g.Open(nil, iv, ct, []byte("aad"))
	if err != nil || string(pt) != "plain text" {
		t.Fatalf("Go cannot decrypt the script's ciphertext: %v %q", err, pt)
	}
	if strings.Join(parts[1:], "|") != "plain text|OperationError|from Go|true" {
		t.Fatalf("answer %q", out)
	}
}

// withGoCiphertext adds to env a ciphertext Go made with key and iv, for the script to decrypt.
func withGoCiphertext(t *testing.T, env map[string]string, key, iv []byte) map[string]string {
	t.Helper()
	block, _ := aes.NewCipher(key)
	g, _ := cipher.NewGCM(block)
	out := map[string]string{"goCiphertext": hex.EncodeToString(g.Seal(nil, iv, []byte("from Go"), nil))}
	for k, v := range env {
		out[k] = v
	}
	return out
}

func TestSubtleRS256SignatureVerifiedByGo(t *testing.T) {
	r := newTestRunner(Limits{})
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	spki, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	env := map[string]string{"pkcs8": base64.StdEncoding.EncodeToString(pkcs8), "spki": base64.StdEncoding.EncodeToString(spki)}
	// A JWT signed the way integrations sign visitor tokens: base64url header.payload, RS256.
	out := mustEvalEnv(t, r, hexJS+`
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const alg = {name: "RSASSA-PKCS1-v1_5", hash: "SHA-256"};
const priv = await crypto.subtle.importKey("pkcs8", b64(ENV.pkcs8), alg, false, ["sign"]);
const pub = await crypto.subtle.importKey("spki", b64(ENV.spki), alg, false, ["verify"]);
const input = b64url(enc.encode(JSON.stringify({alg: "RS256", typ: "JWT"}))) + "." + b64url(enc.encode(JSON.stringify({sub: "reader"})));
const sig = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", priv, enc.encode(input));
let bad = ""; try { await crypto.subtle.importKey("pkcs8", enc.encode("not a key"), alg, false, ["sign"]); } catch (e) { bad = e.name; }
return JSON.stringify({jwt: input + "." + b64url(sig), verified: await crypto.subtle.verify(alg, pub, sig, enc.encode(input)),
  forged: await crypto.subtle.verify(alg, pub, sig, enc.encode(input + "x")), bad, type: priv.type});`, env)
	var res struct {
		JWT      string
		Verified bool
		Forged   bool
		Bad      string
		Type     string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	parts := strings.Split(res.JWT, ".")
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, h[:], sig); err != nil {
		t.Fatalf("Go does not verify the script's RS256 signature: %v", err)
	}
	if !res.Verified || res.Forged || res.Bad != "DataError" || res.Type != "private" {
		t.Fatalf("answer %+v", res)
	}
}
