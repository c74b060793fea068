package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// HTTP translation services, configured by the operator (URL and key). Both are sent the
// segments as HTML so that placeholders come back as they went.

// LibreTranslate calls a LibreTranslate server's /translate.
type LibreTranslate struct {
	URL, APIKey string
	Client      *http.Client
}

// Name is "libretranslate".
func (l *LibreTranslate) Name() string { return "libretranslate" }

// Covers the API's languages; a pair the server lacks fails the run with its message.
func (l *LibreTranslate) Covers(from, to string) bool { return from != to }

// Translate sends all segments in one request.
func (l *LibreTranslate) Translate(ctx context.Context, req Request) ([]string, error) {
	body := map[string]any{"q": req.Segments, "source": baseLanguage(req.From), "target": baseLanguage(req.To), "format": "html"}
	if l.APIKey != "" {
		body["api_key"] = l.APIKey
	}
	var out struct {
		TranslatedText []string `json:"translatedText"`
	}
	if err := postJSON(ctx, l.Client, strings.TrimRight(l.URL, "/")+"/translate", nil, body, &out); err != nil {
		return nil, serviceError(l.Name(), err)
	}
	if len(out.TranslatedText) != len(req.Segments) {
		return nil, errorf(l.Name(), "gave %d translations for %d segments", len(out.TranslatedText), len(req.Segments))
	}
	return out.TranslatedText, nil
}

// DeepL calls DeepL's /v2/translate.
type DeepL struct {
	URL, APIKey string
	Client      *http.Client
}

// DeepLURL is DeepL's endpoint for a key: free keys end in ":fx".
func DeepLURL(key string) string {
	if strings.HasSuffix(key, ":fx") {
		return "https://api-free.deepl.com"
	}
	return "https://api.deepl.com"
}

// Name is "deepl".
func (d *DeepL) Name() string { return "deepl" }

// Covers the API's languages; a pair DeepL lacks fails the run with its message.
func (d *DeepL) Covers(from, to string) bool { return from != to }

// Translate sends all segments in one request, with HTML tag handling.
func (d *DeepL) Translate(ctx context.Context, req Request) ([]string, error) {
	target := strings.ToUpper(req.To)
	if req.To == "pt" {
		target = "PT-PT"
	}
	body := map[string]any{"text": req.Segments, "source_lang": strings.ToUpper(baseLanguage(req.From)),
		"target_lang": target, "tag_handling": "html"}
	var out struct {
		Translations []struct {
			Text string `json:"text"`
		} `json:"translations"`
	}
	h := http.Header{"Authorization": {"DeepL-Auth-Key " + d.APIKey}}
	if err := postJSON(ctx, d.Client, strings.TrimRight(d.URL, "/")+"/v2/translate", h, body, &out); err != nil {
		return nil, serviceError(d.Name(), err)
	}
	if len(out.Translations) != len(req.Segments) {
		return nil, errorf(d.Name(), "gave %d translations for %d segments", len(out.Translations), len(req.Segments))
	}
	res := make([]string, len(out.Translations))
	for i, t := range out.Translations {
		res[i] = t.Text
	}
	return res, nil
}

// baseLanguage drops a region: pt-br → pt.
func baseLanguage(l string) string {
	if i := strings.IndexByte(l, '-'); i > 0 {
		return l[:i]
	}
	return l
}

// Retries of one request to a translation service: 429 (and DeepL's 529) and 5xx answers
// and connection failures are retried up to httpAttempts times in all, after the service's
// Retry-After or an exponential backoff from httpBackoff, each wait at most httpMaxWait.
const (
	httpAttempts = 4
	httpBackoff  = 500 * time.Millisecond
	httpMaxWait  = 30 * time.Second
)

// statusError is a service's answer other than 2xx.
type statusError struct {
	code int
	body string
}

func (e *statusError) Error() string {
	switch e.code {
	case http.StatusForbidden, http.StatusUnauthorized:
		return fmt.Sprintf("the service refused the API key (HTTP %d): %.200s", e.code, e.body)
	case 456:
		return fmt.Sprintf("the account's quota is used up (HTTP 456): %.200s", e.body)
	case http.StatusTooManyRequests, 529:
		return fmt.Sprintf("too many requests (HTTP %d), still after %d attempts: %.200s", e.code, httpAttempts, e.body)
	}
	return fmt.Sprintf("HTTP %d: %.200s", e.code, e.body)
}

// retryable tells the answers worth another attempt soon.
func (e *statusError) retryable() bool {
	return e.code == http.StatusTooManyRequests || e.code == 529 || e.code/100 == 5
}

// serviceError names the provider; an answer that retrying cannot fix (a refused key, a used
// up quota, a request the service rejects) is final, so the run stops with it at once.
func serviceError(name string, err error) error {
	var se *statusError
	if errors.As(err, &se) && !se.retryable() && se.code/100 == 4 {
		return &FinalError{errorf(name, "%v", err)}
	}
	return errorf(name, "%v", err)
}

// postJSON posts body and decodes a 2xx answer into out, retrying as said above; other
// answers are *statusError quoting the start of the answer. Once these retries are spent,
// the job's own retries follow.
func postJSON(ctx context.Context, c *http.Client, url string, h http.Header, body, out any) error {
	if c == nil {
		c = &http.Client{Timeout: time.Minute}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		wait, err := postOnce(ctx, c, url, h, b, out)
		var se *statusError
		if err == nil || attempt == httpAttempts || ctx.Err() != nil ||
			(errors.As(err, &se) && !se.retryable()) {
			return err
		}
		if wait <= 0 {
			wait = httpBackoff << (attempt - 1)
		}
		t := time.NewTimer(min(wait, httpMaxWait))
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

// postOnce makes one attempt; on a 429 or 503 it also returns the wait the service asked
// for in Retry-After (in seconds), if any.
func postOnce(ctx context.Context, c *http.Client, url string, h http.Header, b []byte, out any) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode/100 != 2 {
		var wait time.Duration
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n >= 0 {
			wait = time.Duration(n) * time.Second
		}
		return wait, &statusError{code: resp.StatusCode, body: strings.TrimSpace(string(raw))}
	}
	return 0, json.Unmarshal(raw, out)
}
