package openapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"

	"docsd/internal/fetch"
)

// fetched is a source's files as gathered: the entry file and every file its external
// references reach, keyed by path relative to the entry's folder.
type fetched struct {
	files        map[string]string
	entry        string
	etag         string
	lastModified string
	notModified  bool
}

// failure is a processing failure with the API's error code.
type failure struct {
	code     string
	problems []ProblemItem
}

func (f *failure) Error() string { return f.code + ": " + f.problems[0].Message }

func parseFailure(p ...ProblemItem) *failure { return &failure{code: ErrParse, problems: p} }

// fetchFailure names the fetch's failure the way the API codes it.
func fetchFailure(name string, err error) *failure {
	code := ErrFetch
	if errors.Is(err, fetch.ErrTimeout) {
		code = ErrFetchTimeout
	}
	return &failure{code: code, problems: []ProblemItem{{Code: "fetch", Message: name + ": " + err.Error()}}}
}

// gatherURL fetches the entry at rawURL and every relative file its $refs name, recursively,
// through the address policy. With the latest version (prev), the entry is asked for
// conditionally: unchanged, it is taken from prev, and only the files it references are
// fetched again (they have no validators of their own).
func gatherURL(ctx context.Context, c *fetch.Client, rawURL string, prev *Version, etag, lastModified string) (fetched, error) {
	base, err := url.Parse(rawURL)
	if err != nil {
		return fetched{}, fetchFailure(rawURL, err)
	}
	entry := path.Base(base.Path)
	if entry == "." || entry == "/" || entry == "" {
		entry = "openapi"
	}
	out := fetched{files: map[string]string{}, entry: entry}
	if prev == nil || prev.Entry != entry {
		etag, lastModified = "", ""
	}
	body, res, err := get(ctx, c, base, etag, lastModified)
	if err != nil {
		return out, fetchFailure(entry, err)
	}
	if res.StatusCode == http.StatusNotModified {
		if len(prev.Files) == 1 {
			out.notModified = true
			return out, nil
		}
		body = []byte(prev.Files[entry])
		out.etag, out.lastModified = etag, lastModified
	} else {
		out.etag, out.lastModified = res.Header.Get("ETag"), res.Header.Get("Last-Modified")
	}
	out.files[entry] = string(body)
	queue := []string{entry}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		tree, problem := decodeFile(name, []byte(out.files[name]))
		if problem != nil {
			return out, parseFailure(*problem)
		}
		for _, ref := range externalRefs(tree) {
			target, err := relativeTarget(name, ref.target)
			if err != nil {
				return out, parseFailure(ProblemItem{Code: "reference", Message: fmt.Sprintf("%s: at %s: %q: %s", name, ref.pointer, ref.target, err)})
			}
			if _, seen := out.files[target]; seen {
				continue
			}
			if len(out.files) >= MaxFiles {
				return out, parseFailure(ProblemItem{Code: "reference", Message: fmt.Sprintf("%s: at %s: more than %d files are referenced", name, ref.pointer, MaxFiles)})
			}
			u := base.ResolveReference(&url.URL{Path: path.Join(path.Dir(base.Path), target)})
			b, _, err := get(ctx, c, u, "", "")
			if err != nil {
				return out, fetchFailure(target+" (referenced from "+name+" at "+ref.pointer+")", err)
			}
			out.files[target] = string(b)
			queue = append(queue, target)
		}
	}
	return out, nil
}

// get fetches one URL, sending the validators when given; 304 comes back with no body.
func get(ctx context.Context, c *fetch.Client, u *url.URL, etag, lastModified string) ([]byte, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/json, application/yaml, text/yaml, */*")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" {
		req.Header.Set("If-Modified-Since", lastModified)
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotModified && (etag != "" || lastModified != "") {
		return nil, res, nil
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, nil, fetch.NewError(fetch.ErrStatus, u.Host, false, "the server answered %s", res.Status)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, c.Classify(u.Host, err)
	}
	return body, res, nil
}

// gatherText takes a text source as its one file; its relative references have no folder
// to be read from.
func gatherText(text string) (fetched, error) {
	entry := "openapi.yaml"
	if t := strings.TrimLeft(text, " \t\r\n\ufeff"); strings.HasPrefix(t, "{") {
		entry = "openapi.json"
	}
	out := fetched{files: map[string]string{entry: text}, entry: entry}
	tree, problem := decodeFile(entry, []byte(text))
	if problem != nil {
		return out, parseFailure(*problem)
	}
	if refs := externalRefs(tree); len(refs) > 0 {
		return out, parseFailure(ProblemItem{Code: "reference", Message: fmt.Sprintf(
			"%s: at %s: %q names another file, which a specification given as text cannot have; give it by URL", entry, refs[0].pointer, refs[0].target)})
	}
	return out, nil
}
