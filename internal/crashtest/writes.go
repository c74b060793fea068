package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// An acked write is one the server acknowledged; check reads it back and fails if the
// server lost it.
type acked struct {
	what  string
	check func(ctx context.Context, c *client) error
}

// pendingImport is an import the server answered 202: queued, to be committed by a job.
type pendingImport struct {
	space string
	pages int
	what  string
}

// ledger holds what the writers were told, shared by them.
type ledger struct {
	mu      sync.Mutex
	acks    []acked         // every acknowledged write, for the final check
	fresh   []acked         // acknowledged since the last restart
	imports []pendingImport // queued imports not yet seen committed
	refused map[string]int  // answers other than the expected one, by status
	queued  int             // imports answered 202, all cycles
}

func (l *ledger) ack(what string, check func(ctx context.Context, c *client) error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := acked{what, check}
	l.acks = append(l.acks, a)
	l.fresh = append(l.fresh, a)
}

// failed records an error from a write: a refusal (the server answered something else) is
// counted, so that a run whose writes were all refused does not pass as lossless; anything
// else is the connection cut by the kill, and the write is simply not acknowledged.
func (l *ledger) failed(err error) {
	var se *statusError
	if errors.As(err, &se) {
		l.mu.Lock()
		l.refused[fmt.Sprintf("%d %s", se.status, se.body)]++
		l.mu.Unlock()
	}
}

// writer does writes of every kind, in turn, until ctx ends. Each writer has a space of its
// own for change requests, so its merges need no coordination with others'.
type writer struct {
	id      int
	org     string
	home    string // the writer's space for change requests; "" until created
	seq     int
	l       *ledger
	archive func(marker string) ([]byte, int, error)
}

func (w *writer) marker(kind string) string {
	w.seq++
	return fmt.Sprintf("crash-w%d-%s-%d-%d", w.id, kind, w.seq, time.Now().UnixNano())
}

// run writes until ctx ends; c points at the server of this cycle.
func (w *writer) run(ctx context.Context, c *client) {
	steps := []func(context.Context, *client) error{w.space, w.collection, w.changeRequest, w.queuedImport}
	for i := 0; ctx.Err() == nil; i++ {
		if w.home == "" {
			id, err := w.newSpace(ctx, c, "home")
			if err != nil {
				w.l.failed(err)
				continue
			}
			w.home = id
		}
		if err := steps[i%len(steps)](ctx, c); err != nil && ctx.Err() == nil {
			w.l.failed(err)
		}
	}
}

type idOnly struct {
	ID string `json:"id"`
}

// newSpace creates a space and records it as acknowledged.
func (w *writer) newSpace(ctx context.Context, c *client, kind string) (string, error) {
	title := w.marker(kind)
	var sp idOnly
	if err := c.send(ctx, "POST", "/v1/orgs/"+w.org+"/spaces", map[string]any{"title": title}, 201, &sp); err != nil {
		return "", err
	}
	w.l.ack("space "+sp.ID, func(ctx context.Context, c *client) error {
		var got struct{ Title string }
		if err := c.send(ctx, "GET", "/v1/spaces/"+sp.ID, nil, 200, &got); err != nil {
			return err
		}
		if got.Title != title {
			return fmt.Errorf("title %q, want %q", got.Title, title)
		}
		return nil
	})
	return sp.ID, nil
}

func (w *writer) space(ctx context.Context, c *client) error {
	_, err := w.newSpace(ctx, c, "space")
	return err
}

func (w *writer) collection(ctx context.Context, c *client) error {
	title := w.marker("collection")
	var col idOnly
	if err := c.send(ctx, "POST", "/v1/orgs/"+w.org+"/collections", map[string]any{"title": title}, 201, &col); err != nil {
		return err
	}
	w.l.ack("collection "+col.ID, func(ctx context.Context, c *client) error {
		var got struct{ Title string }
		if err := c.send(ctx, "GET", "/v1/collections/"+col.ID, nil, 200, &got); err != nil {
			return err
		}
		if got.Title != title {
			return fmt.Errorf("title %q, want %q", got.Title, title)
		}
		return nil
	})
	return nil
}

// changeRequest opens a change request in the writer's space, adds a page to it, comments
// on it, and merges it: four acknowledged writes, each checked on its own.
func (w *writer) changeRequest(ctx context.Context, c *client) error {
	sp, subject := w.home, w.marker("cr")
	base := "/v1/spaces/" + sp + "/change-requests"
	var cr idOnly
	if err := c.send(ctx, "POST", base, map[string]any{"subject": subject}, 201, &cr); err != nil {
		return err
	}
	crPath := base + "/" + cr.ID
	w.l.ack("change request "+crPath, func(ctx context.Context, c *client) error {
		var got struct{ Subject string }
		if err := c.send(ctx, "GET", crPath, nil, 200, &got); err != nil {
			return err
		}
		if got.Subject != subject {
			return fmt.Errorf("subject %q, want %q", got.Subject, subject)
		}
		return nil
	})

	text := w.marker("page")
	var page struct{ Page, Revision string }
	if err := c.send(ctx, "POST", crPath+"/pages", map[string]any{"title": "Page " + text, "markdown": text + "\n"}, 201, &page); err != nil {
		return err
	}
	w.l.ack("page edit "+crPath+"/pages/"+page.Page, func(ctx context.Context, c *client) error {
		return hasMarkdown(ctx, c, "/v1/spaces/"+sp+"/revisions/"+page.Revision+"/page/"+page.Page, text)
	})

	note := w.marker("comment")
	var com idOnly
	if err := c.send(ctx, "POST", crPath+"/comments", map[string]any{"body": map[string]any{"markdown": note}}, 200, &com); err != nil {
		return err
	}
	w.l.ack("comment "+crPath+"/comments/"+com.ID, func(ctx context.Context, c *client) error {
		b, err := c.call(ctx, "GET", crPath+"/comments/"+com.ID, "", nil, 200)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte(note)) {
			return fmt.Errorf("the comment lost its text: %.200s", b)
		}
		return nil
	})

	if err := c.send(ctx, "POST", crPath+"/merge", nil, 200, nil); err != nil {
		return err
	}
	w.l.ack("merge "+crPath, func(ctx context.Context, c *client) error {
		var got struct{ Status string }
		if err := c.send(ctx, "GET", crPath, nil, 200, &got); err != nil {
			return err
		}
		if got.Status != "merged" {
			return fmt.Errorf("status %q after an acknowledged merge", got.Status)
		}
		return hasMarkdown(ctx, c, "/v1/spaces/"+sp+"/content/page/"+page.Page, text)
	})
	return nil
}

// hasMarkdown checks that the page at path holds text.
func hasMarkdown(ctx context.Context, c *client, path, text string) error {
	var got struct{ Markdown string }
	if err := c.send(ctx, "GET", path+"?format=markdown", nil, 200, &got); err != nil {
		return err
	}
	if got.Markdown != text+"\n" {
		return fmt.Errorf("markdown %q, want %q", got.Markdown, text+"\n")
	}
	return nil
}

// queuedImport creates a space and imports a tree into it that is larger than the server
// commits within a request, so that the server answers 202 and a job commits it.
func (w *writer) queuedImport(ctx context.Context, c *client) error {
	sp, err := w.newSpace(ctx, c, "import")
	if err != nil {
		return err
	}
	marker := w.marker("import")
	body, pages, err := w.archive(marker)
	if err != nil {
		return err
	}
	if _, err := c.call(ctx, "POST", "/v1/spaces/"+sp+"/content/import", "application/gzip", body, 202); err != nil {
		return err
	}
	w.l.mu.Lock()
	w.l.imports = append(w.l.imports, pendingImport{space: sp, pages: pages, what: "import into " + sp})
	w.l.mu.Unlock()
	return nil
}

// importDone reports whether the space holds the imported tree's pages.
func importDone(ctx context.Context, c *client, p pendingImport) (bool, error) {
	var tree struct {
		Pages []node `json:"pages"`
	}
	if err := c.send(ctx, "GET", "/v1/spaces/"+p.space+"/content/pages", nil, 200, &tree); err != nil {
		return false, err
	}
	return count(tree.Pages) == p.pages, nil
}

type node struct {
	Pages []node `json:"pages"`
}

func count(ns []node) int {
	n := len(ns)
	for _, x := range ns {
		n += count(x.Pages)
	}
	return n
}
