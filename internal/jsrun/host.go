package jsrun

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"modernc.org/quickjs/intl"
)

// host is the one Go function a VM sees, as __docsd_host(op, ...args): the JavaScript
// polyfills (js/*.js) build the web APIs over these operations. Arguments and results are
// strings (bytes as binary strings, structures as JSON); an error becomes a thrown TypeError
// whose message may start with a DOMException name ("DataError: ...") for the polyfill to
// rethrow as such.
func (inv *invocation) host(args []any) (_ any, err error) {
	// A panic here would go on through the engine into the caller of Invoke and take the
	// server down with it; the script gets an error instead.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the host operation: %v", p)
		}
	}()
	if len(args) == 0 {
		return nil, fmt.Errorf("no operation")
	}
	op, _ := args[0].(string)
	a := hostArgs(args[1:])
	switch op {
	case "request":
		return inv.requestJSON()
	case "log":
		inv.log(a.str(0), a.str(1))
		return "", nil
	case "text.encode":
		return toBinary([]byte(a.str(0))), nil
	case "text.decode":
		b, err := a.bin(0)
		if err != nil {
			return nil, err
		}
		if a.str(1) == "fatal" && !utf8.Valid(b) {
			return nil, fmt.Errorf("the data is not valid UTF-8")
		}
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	case "atob":
		s := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
				return -1
			}
			return r
		}, a.str(0))
		s = strings.TrimRight(s, "=")
		b, err := base64.RawStdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("InvalidCharacterError: the string is not valid base64")
		}
		return toBinary(b), nil
	case "btoa":
		b, err := fromBinary(a.str(0))
		if err != nil {
			return nil, fmt.Errorf("InvalidCharacterError: %v", err)
		}
		return base64.StdEncoding.EncodeToString(b), nil
	case "random":
		n := a.int(0)
		if n < 0 || n > 65536 {
			return nil, fmt.Errorf("QuotaExceededError: getRandomValues takes at most 65536 bytes")
		}
		b := make([]byte, n)
		rand.Read(b)
		return toBinary(b), nil
	case "uuid":
		return newUUID(), nil
	case "url.parse":
		return parseURL(a.str(0), a.str(1), a.str(2) == "1")
	case "multipart.parse":
		b, err := a.bin(1)
		if err != nil {
			return nil, err
		}
		return parseMultipart(a.str(0), b)
	case "fetch":
		b, err := a.bin(1)
		if err != nil {
			return nil, err
		}
		return inv.fetch(a.str(0), b)
	case "intl":
		// Intl (DateTimeFormat, NumberFormat, toLocaleString), which QuickJS lacks and Workers
		// have, in UTC as Workers run. Installing it costs about as much as the rest of a VM,
		// so js/80_intl.js asks for it on first use.
		return "", intl.Register(inv.vm, intl.TimeZone("UTC"))
	case "now":
		return float64(time.Now().UnixMicro()) / 1000, nil
	}
	if strings.HasPrefix(op, "crypto.") {
		return cryptoOp(op, a)
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

func cryptoOp(op string, a hostArgs) (any, error) {
	bins := make([][]byte, max(len(a), 6)) // missing arguments are empty, never out of range
	for i := range a {
		if s, ok := a[i].(string); ok {
			b, err := fromBinary(s)
			if err == nil {
				bins[i] = b
			}
		}
	}
	alg := a.str(0)
	var out []byte
	var ok bool
	var err error
	switch op {
	case "crypto.digest":
		out, err = digest(alg, bins[1])
	case "crypto.hmac.sign":
		out, err = hmacSign(alg, bins[1], bins[2])
	case "crypto.hmac.verify":
		ok, err = hmacVerify(alg, bins[1], bins[2], bins[3])
		return strconv.FormatBool(ok), err
	case "crypto.rsa.sign":
		out, err = rsaSign(alg, bins[1], bins[2])
	case "crypto.rsa.verify":
		ok, err = rsaVerify(alg, bins[1], a.str(2) == "private", bins[3], bins[4])
		return strconv.FormatBool(ok), err
	case "crypto.rsa.check":
		// importKey validates the key at import, as browsers do.
		if a.str(2) == "private" {
			_, err = rsaPrivate(bins[1])
		} else {
			_, err = rsaPublic(bins[1], false)
		}
		return "", err
	case "crypto.aes.encrypt":
		out, err = aesEncrypt(bins[1], bins[2], bins[3], bins[4], a.int(5))
	case "crypto.aes.decrypt":
		out, err = aesDecrypt(bins[1], bins[2], bins[3], bins[4], a.int(5))
	default:
		return nil, fmt.Errorf("unknown operation %q", op)
	}
	if err != nil {
		return nil, err
	}
	return toBinary(out), nil
}

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// hostArgs reads the arguments of a host operation leniently: a missing one is "" or 0.
type hostArgs []any

func (a hostArgs) str(i int) string {
	if i < len(a) {
		if s, ok := a[i].(string); ok {
			return s
		}
	}
	return ""
}

func (a hostArgs) int(i int) int {
	if i < len(a) {
		switch v := a[i].(type) {
		case int:
			return v
		case float64:
			return int(v)
		case string:
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

func (a hostArgs) bin(i int) ([]byte, error) { return fromBinary(a.str(i)) }

func (inv *invocation) requestJSON() (any, error) {
	type req struct {
		Method  string      `json:"method"`
		URL     string      `json:"url"`
		Headers [][2]string `json:"headers"`
		Body    *string     `json:"body"`
	}
	r := req{Method: inv.req.Method, URL: inv.req.URL}
	for k, vs := range inv.req.Headers {
		for _, v := range vs {
			r.Headers = append(r.Headers, [2]string{k, v})
		}
	}
	if inv.req.Body != nil {
		b := toBinary(inv.req.Body)
		r.Body = &b
	}
	out, err := json.Marshal(map[string]any{
		"request": r,
		"env":     inv.env,
		"limits":  map[string]int{"responseBytes": inv.limits.ResponseBytes},
	})
	return string(out), err
}

// logEntryCost is what a log entry counts for beyond its text, so a loop of empty lines is
// bounded too.
const logEntryCost = 32

// log records a console call, until the invocation's log budget is spent: the entry that
// spends it is cut and says so, later ones are dropped.
func (inv *invocation) log(level, msg string) {
	switch level {
	case "debug", "info", "log", "warn", "error":
	default:
		level = "log"
	}
	if inv.logBytes >= inv.limits.LogBytes {
		return
	}
	room := inv.limits.LogBytes - inv.logBytes - logEntryCost
	inv.logBytes += len(msg) + logEntryCost
	if inv.logBytes > inv.limits.LogBytes {
		msg = strings.ToValidUTF8(msg[:max(0, min(len(msg), room))], "") + " [logs cut: the invocation's log limit is reached]"
		inv.logBytes = inv.limits.LogBytes
	}
	inv.trace.Logs = append(inv.trace.Logs, LogEntry{Level: level, Message: msg, Time: time.Now()})
}
