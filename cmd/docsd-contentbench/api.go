package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// api speaks to docsd as a client program would.
type api struct {
	base, token string
	http        *http.Client
}

func newAPI(base, token string) *api {
	return &api{base: base, token: token, http: &http.Client{Timeout: 5 * time.Minute}}
}

// call sends a request and decodes the JSON answer into out (nil to drop it); a status other
// than want is an error quoting the answer.
func (a *api) call(ctx context.Context, method, path, contentType string, body []byte, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d, want %d: %.300s", method, path, resp.StatusCode, want, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// send is call with a JSON body.
func (a *api) send(ctx context.Context, method, path string, in any, want int, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return a.call(ctx, method, path, "application/json", b, want, out)
}

type idOnly struct {
	ID string `json:"id"`
}

type pageNode struct {
	ID    string     `json:"id"`
	Title string     `json:"title"`
	Pages []pageNode `json:"pages"`
}

// pageIDs lists every page id of the space's head, in reading order.
func (a *api) pageIDs(ctx context.Context, spaceID string) ([]string, error) {
	var tree struct {
		Pages []pageNode `json:"pages"`
	}
	if err := a.call(ctx, "GET", "/v1/spaces/"+spaceID+"/content/pages", "", nil, 200, &tree); err != nil {
		return nil, err
	}
	var out []string
	var walk func([]pageNode)
	walk = func(ps []pageNode) {
		for _, p := range ps {
			out = append(out, p.ID)
			walk(p.Pages)
		}
	}
	walk(tree.Pages)
	return out, nil
}
