package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// mtStandIn speaks LibreTranslate's POST /translate or DeepL's POST /v2/translate on
// loopback. It checks the key as the services do (403 for another key; for DeepL, the key
// "quota-key" has used its quota up: 456), answers the first rateLimited requests with 429,
// and "translates" every text by prefixing it with "ES ".
type mtStandIn struct {
	t           *testing.T
	deepl       bool
	key         string
	rateLimited int

	mu    sync.Mutex
	times []time.Time // of every request
	codes []int       // what each got
}

func (m *mtStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.times = append(m.times, time.Now())
	answer := func(code int, body any) {
		m.codes = append(m.codes, code)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(body)
	}
	want := "/translate"
	if m.deepl {
		want = "/v2/translate"
	}
	if r.Method != http.MethodPost || r.URL.Path != want {
		m.t.Errorf("request %s %s, want POST %s", r.Method, r.URL.Path, want)
		answer(404, map[string]any{"error": "Not Found"})
		return
	}
	var body struct {
		Q          []string `json:"q"`
		Source     string   `json:"source"`
		Target     string   `json:"target"`
		Format     string   `json:"format"`
		APIKey     string   `json:"api_key"`
		Text       []string `json:"text"`
		SourceLang string   `json:"source_lang"`
		TargetLang string   `json:"target_lang"`
		TagHandlig string   `json:"tag_handling"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		answer(400, map[string]any{"error": "bad JSON"})
		return
	}
	if m.deepl {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "DeepL-Auth-Key ")
		switch {
		case key == "quota-key":
			answer(456, map[string]any{"message": "Quota Exceeded"})
			return
		case key != m.key:
			answer(403, map[string]any{"message": "Forbidden"})
			return
		case body.SourceLang != "EN" || body.TargetLang != "ES" || body.TagHandlig != "html" || len(body.Text) == 0:
			m.t.Errorf("DeepL request body: %+v", body)
		}
	} else {
		switch {
		case body.APIKey != m.key:
			answer(403, map[string]any{"error": "Invalid API key"})
			return
		case body.Source != "en" || body.Target != "es" || body.Format != "html" || len(body.Q) == 0:
			m.t.Errorf("LibreTranslate request body: %+v", body)
		}
	}
	if m.rateLimited > 0 {
		m.rateLimited--
		if m.deepl {
			answer(429, map[string]any{"message": "Too many requests"})
		} else {
			answer(429, map[string]any{"error": "Too many request limits violations"})
		}
		return
	}
	if m.deepl {
		var out []any
		for _, s := range body.Text {
			out = append(out, map[string]any{"detected_source_language": "EN", "text": "ES " + s})
		}
		answer(200, map[string]any{"translations": out})
		return
	}
	var out []string
	for _, s := range body.Q {
		out = append(out, "ES "+s)
	}
	answer(200, map[string]any{"translatedText": out})
}

// mtRun makes a server whose only translation provider is the stand-in (configured with
// key), runs a translation of the usual source tree into Spanish, and returns the
// translation once its run is over (completed, or failed with an error).
func mtRun(t *testing.T, stand *mtStandIn, key string) (*apitest.Env, string, *apitest.Resp) {
	t.Helper()
	srv := httptest.NewServer(stand)
	t.Cleanup(srv.Close)
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.Language.ApertiumCommand = ""
		if stand.deepl {
			c.Language.Provider, c.Language.DeepLURL, c.Language.DeepLKey = "deepl", srv.URL, key
		} else {
			c.Language.Provider, c.Language.LibreTranslateURL, c.Language.LibreTranslateKey = "libretranslate", srv.URL, key
		}
	})
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	replaceContent(t, e, e.Admin, src, sourceTree())
	e.RunDue()
	base := "/v1/orgs/" + e.Org + "/translations"
	id := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"},
		"language": "es"}).Expect(201).Str("id")
	e.Post(e.Admin, base+"/"+id+"/run", nil).Expect(204)
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.RunDue()
		tr := e.Get(e.Admin, base+"/"+id).Expect(200)
		if tr.Str("status") == "completed" && (tr.Num("stats.runs") >= 1 || tr.Has("error")) {
			return e, base + "/" + id, tr
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not end: %v", tr.Map())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTranslationHTTPServices(t *testing.T) {
	for _, deepl := range []bool{false, true} {
		name, provider := "libretranslate", "libretranslate"
		if deepl {
			name, provider = "deepl", "deepl"
		}
		t.Run(name+"/429 then success", func(t *testing.T) {
			stand := &mtStandIn{t: t, deepl: deepl, key: "good-key", rateLimited: 1}
			e, _, tr := mtRun(t, stand, "good-key")
			if tr.Str("provider") != provider || tr.Has("error") || tr.Num("stats.runs") != 1 || tr.Num("stats.latestPages") != 3 {
				t.Fatalf("translation after the run: %v", tr.Map())
			}
			out := resultTree(t, e, tr)
			if p1 := out.Pages["p1"]; p1.Title != "ES Getting started" || !strings.Contains(p1.Markdown, codeBlock) ||
				!strings.Contains(p1.Markdown, "](https://example.com/guide)") {
				t.Fatalf("p1: %q %q", p1.Title, p1.Markdown)
			}
			stand.mu.Lock()
			defer stand.mu.Unlock()
			if len(stand.codes) != 4 || stand.codes[0] != 429 || stand.codes[1] != 200 {
				t.Fatalf("answers %v, want a 429 then one 200 per page (3)", stand.codes)
			}
			if gap := stand.times[1].Sub(stand.times[0]); gap < 400*time.Millisecond || gap > 5*time.Second {
				t.Errorf("retry after the 429 came %v later, want the backoff (500 ms)", gap)
			}
		})
		t.Run(name+"/403 bad key", func(t *testing.T) {
			stand := &mtStandIn{t: t, deepl: deepl, key: "good-key"}
			e, path, tr := mtRun(t, stand, "wrong-key")
			if tr.Str("provider") != provider || !strings.Contains(tr.Str("error"), "HTTP 403") ||
				!strings.Contains(tr.Str("error"), "API key") || tr.Num("stats.runs") != 0 || tr.Has("result") {
				t.Fatalf("translation after a refused key: %v", tr.Map())
			}
			// Final: neither the provider nor the job tries again.
			e.RunDue()
			e.Get(e.Admin, path).Expect(200)
			stand.mu.Lock()
			defer stand.mu.Unlock()
			if len(stand.codes) != 1 {
				t.Fatalf("answers %v, want one 403 and no retry", stand.codes)
			}
		})
	}
	t.Run("deepl/456 quota", func(t *testing.T) {
		stand := &mtStandIn{t: t, deepl: true, key: "good-key"}
		e, path, tr := mtRun(t, stand, "quota-key")
		if tr.Str("provider") != "deepl" || !strings.Contains(tr.Str("error"), "HTTP 456") ||
			!strings.Contains(tr.Str("error"), "quota") || tr.Num("stats.runs") != 0 {
			t.Fatalf("translation after a used-up quota: %v", tr.Map())
		}
		e.RunDue()
		e.Get(e.Admin, path).Expect(200)
		stand.mu.Lock()
		defer stand.mu.Unlock()
		if len(stand.codes) != 1 {
			t.Fatalf("answers %v, want one 456 and no retry", stand.codes)
		}
	})
}
