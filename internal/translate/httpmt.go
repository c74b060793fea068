package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
		return nil, errorf(l.Name(), "%v", err)
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
		return nil, errorf(d.Name(), "%v", err)
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

// postJSON posts body and decodes a 2xx answer into out; other answers are errors that
// quote the start of the answer. The job's retries cover failures.
func postJSON(ctx context.Context, c *http.Client, url string, h http.Header, body, out any) error {
	if c == nil {
		c = &http.Client{Timeout: time.Minute}
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}
