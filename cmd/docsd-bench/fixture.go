package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// seedSite adds what the page endpoints read: a space of benchPages pages, published as a
// public site. Space and site are made through the API; the pages through the content
// service (see seedContent).
func seedSite(ctx context.Context, addr, token, dataDir, databaseURL string, f *fixture) error {
	var user struct {
		ID string `json:"id"`
	}
	if err := call(ctx, addr, token, http.MethodGet, "/v1/user", nil, http.StatusOK, &user); err != nil {
		return err
	}
	var sp struct {
		ID string `json:"id"`
	}
	if err := call(ctx, addr, token, http.MethodPost, "/v1/orgs/"+url.PathEscape(f.OrgID)+"/spaces",
		map[string]any{"title": "Bench space"}, http.StatusCreated, &sp); err != nil {
		return err
	}
	tree, err := benchTree()
	if err != nil {
		return err
	}
	if err := seedContent(ctx, dataDir, databaseURL, user.ID, sp.ID, tree); err != nil {
		return err
	}
	var st struct {
		ID string `json:"id"`
	}
	sites := "/v1/orgs/" + url.PathEscape(f.OrgID) + "/sites"
	if err := call(ctx, addr, token, http.MethodPost, sites,
		map[string]any{"title": "Bench Docs", "visibility": "public", "spaces": []string{sp.ID}}, http.StatusCreated, &st); err != nil {
		return err
	}
	var published struct {
		URLs struct {
			Published string `json:"published"`
		} `json:"urls"`
	}
	if err := call(ctx, addr, token, http.MethodPost, sites+"/"+url.PathEscape(st.ID)+"/publish", nil, http.StatusOK, &published); err != nil {
		return err
	}
	u, err := url.Parse(published.URLs.Published)
	if err != nil || u.Path == "" {
		return fmt.Errorf("publish answered no published URL: %q", published.URLs.Published)
	}
	f.SpaceID, f.PageID, f.SitePath = sp.ID, benchPageID, u.EscapedPath()
	return nil
}

// benchPageID is the page the page endpoints read, deep enough to have a parent; benchPagePath
// is its path on the site.
const (
	benchPageID   = "p0251"
	benchPagePath = "page-p0250/page-p0251"
)

// call sends a set-up request with a JSON body (nil for none) and decodes the answer into out.
func call(ctx context.Context, addr, token, method, path string, body any, want int, out any) error {
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return err
		}
	}
	status, answer, err := send(ctx, addr, token, method, path, string(raw))
	if err != nil {
		return err
	}
	if status != want {
		return fmt.Errorf("%s %s answered %d: %s", method, path, status, errorMessage(answer))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer, out)
}
