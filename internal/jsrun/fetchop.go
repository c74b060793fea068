package jsrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"docsd/internal/fetch"
)

// fetch backs the global fetch(): one outbound request through docsd's address policy
// (internal/fetch: private targets refused, timeout, size cap), bounded further by the
// invocation's deadline and its count of requests, and recorded in the trace. It blocks the
// VM while it runs: a script's requests run one after another, which the time limit covers.
func (inv *invocation) fetch(metaJSON string, body []byte) (any, error) {
	var meta struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  [][2]string `json:"headers"`
		Redirect string      `json:"redirect"`
		HasBody  bool        `json:"hasBody"`
	}
	if err := json.Unmarshal([]byte(metaJSON), &meta); err != nil {
		return nil, fmt.Errorf("fetch: bad request: %v", err)
	}
	rec := FetchRecord{Method: meta.Method}
	start := time.Now()
	defer func() {
		rec.Duration = time.Since(start)
		inv.trace.Fetches = append(inv.trace.Fetches, rec)
	}()
	if len(inv.trace.Fetches) >= inv.limits.Fetches {
		rec.Error = fmt.Sprintf("more than %d requests in one invocation", inv.limits.Fetches)
		return nil, errors.New("fetch failed: " + rec.Error)
	}
	ctx, cancel := context.WithDeadline(inv.ctx, inv.deadline)
	defer cancel()
	var rdr io.Reader
	if meta.HasBody {
		rdr = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, meta.Method, meta.URL, rdr)
	if err != nil {
		rec.Error = "the request is invalid"
		return nil, fmt.Errorf("fetch failed: %v", err)
	}
	rec.Host = req.URL.Host
	for _, h := range meta.Headers {
		req.Header.Add(h[0], h[1])
	}
	if inv.local.serves(req.URL) {
		max := int64(fetch.DefaultMaxBytes)
		if inv.fetcher != nil {
			max = inv.fetcher.Options().MaxBytes
		}
		res, data, err := inv.local.do(req, max)
		if err != nil {
			rec.Error = err.Error()
			return nil, fmt.Errorf("fetch failed: %v", err)
		}
		return inv.fetchAnswer(&rec, req, res, data)
	}
	if inv.fetcher == nil {
		rec.Error = "outbound requests are not available"
		return nil, errors.New("fetch failed: " + rec.Error)
	}
	var res *http.Response
	if meta.Redirect == "manual" || meta.Redirect == "error" {
		// The policy's client follows redirects itself; a copy that stops at the first one
		// answers "manual" (the dial-time address check stays, it is in the transport).
		if err := inv.fetcher.CheckURL(req.URL); err != nil {
			rec.Error = err.Error()
			return nil, fmt.Errorf("fetch failed: %v", err)
		}
		hc := *inv.fetcher.HTTPClient()
		hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		res, err = hc.Do(req)
		if err != nil {
			err = inv.fetcher.Classify(req.URL.Host, err)
		}
	} else {
		res, err = inv.fetcher.Do(req)
	}
	if err != nil {
		rec.Error = err.Error()
		return nil, fmt.Errorf("fetch failed: %v", err)
	}
	defer res.Body.Close()
	if meta.Redirect == "error" && res.StatusCode >= 300 && res.StatusCode < 400 && res.Header.Get("Location") != "" {
		rec.Status = res.StatusCode
		rec.Error = "redirected while redirect is \"error\""
		return nil, errors.New("fetch failed: " + rec.Error)
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		rec.Status, rec.Bytes = res.StatusCode, len(data)
		err = inv.fetcher.Classify(req.URL.Host, err)
		rec.Error = err.Error()
		return nil, fmt.Errorf("fetch failed: %v", err)
	}
	return inv.fetchAnswer(&rec, req, res, data)
}

// fetchAnswer records a fetch's answer in the trace and encodes it for the script.
func (inv *invocation) fetchAnswer(rec *FetchRecord, req *http.Request, res *http.Response, data []byte) (any, error) {
	rec.Status, rec.Bytes = res.StatusCode, len(data)
	var headers [][2]string
	for k, vs := range res.Header {
		for _, v := range vs {
			headers = append(headers, [2]string{strings.ToLower(k), v})
		}
	}
	out, err := json.Marshal(map[string]any{
		"status":     res.StatusCode,
		"statusText": strings.TrimSpace(strings.TrimPrefix(res.Status, fmt.Sprint(res.StatusCode))),
		"headers":    headers,
		"url":        res.Request.URL.String(),
		"redirected": res.Request.URL.String() != req.URL.String(),
		"body":       toBinary(data),
	})
	return string(out), err
}
