package content

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Verifier checks that stored revisions are whole: that everything a revision reaches (its
// parents and base, the trie nodes under its roots, its page and file records, their
// markdown) is stored, and that each content-addressed object still hashes to its name. It
// remembers what it has checked, so revisions sharing most of their objects cost only what
// they do not share. It reads outside any transaction: run it on a copy, or accept that
// objects written meanwhile may be seen or not.
type Verifier struct {
	tx     Tx
	report func(string)
	seen   map[string]bool  // objects and markdown checked, present or not
	blobs  map[string]int64 // blob hash → size, of every file record reached
	where  map[string]string
}

// NewVerifier returns a verifier that calls report with one line per problem it finds.
func (s *Service) NewVerifier(report func(problem string)) *Verifier {
	return &Verifier{tx: s.store.Read(), report: report, seen: map[string]bool{},
		blobs: map[string]int64{}, where: map[string]string{}}
}

// Blobs returns the blobs the file records of the verified revisions name, with their sizes,
// and for each the first revision found to reach it.
func (v *Verifier) Blobs() (sizes map[string]int64, reachedFrom map[string]string) {
	return v.blobs, v.where
}

// Revision checks one revision. A problem is reported, not returned; the error is for a
// failure to read.
func (v *Verifier) Revision(ctx context.Context, id string) error {
	rev, err := v.tx.Revision(ctx, id)
	if errors.Is(err, ErrNotFound) {
		v.report(fmt.Sprintf("revision %s is missing", id))
		return nil
	}
	if err != nil {
		return err
	}
	for _, p := range rev.Parents {
		if _, err := v.tx.Revision(ctx, p); errors.Is(err, ErrNotFound) {
			v.report(fmt.Sprintf("revision %s: its parent revision %s is missing", id, p))
		} else if err != nil {
			return err
		}
	}
	r, err := resolve(ctx, v.tx, rev)
	if err != nil {
		v.report(fmt.Sprintf("revision %s: %v", id, err))
		return nil
	}
	for _, kind := range []string{"page", "file"} {
		root, changes := r.pagesRoot, r.pages
		if kind == "file" {
			root, changes = r.filesRoot, r.files
		}
		records, err := v.trie(ctx, id, root)
		if err != nil {
			return err
		}
		for _, h := range changes {
			if h != "" && !v.seen[h] {
				records = append(records, h)
			}
		}
		if err := v.records(ctx, id, kind, records); err != nil {
			return err
		}
	}
	return nil
}

// trie walks the nodes under root not checked yet, level by level, and returns the record
// hashes their leaves name that are not checked yet.
func (v *Verifier) trie(ctx context.Context, revID, root string) ([]string, error) {
	var records []string
	var level []string
	if root != "" && !v.seen[root] {
		level = append(level, root)
	}
	for len(level) > 0 {
		bodies, err := v.tx.Objects(ctx, level)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, h := range level {
			v.seen[h] = true
			body, ok := bodies[h]
			if !ok {
				v.report(fmt.Sprintf("revision %s: trie node %s is missing", revID, h))
				continue
			}
			if got := digest(body); got != h {
				v.report(fmt.Sprintf("revision %s: trie node %s holds bytes that hash to %s", revID, h, got))
				continue
			}
			n, err := decodeNode(body)
			if err != nil {
				v.report(fmt.Sprintf("revision %s: trie node %s does not decode: %v", revID, h, err))
				continue
			}
			for _, e := range n.Entries {
				if !v.seen[e[1]] {
					records = append(records, e[1])
				}
			}
			for _, c := range n.Children {
				if c != "" && !v.seen[c] {
					v.seen[c] = true // reached once even when two parents name it
					next = append(next, c)
				}
			}
		}
		level = next
	}
	slices.Sort(records)
	return slices.Compact(records), nil
}

// records checks page or file records, the markdown of pages and notes the blobs of files.
func (v *Verifier) records(ctx context.Context, revID, kind string, hashes []string) error {
	if len(hashes) == 0 {
		return nil
	}
	bodies, err := v.tx.Objects(ctx, hashes)
	if err != nil {
		return err
	}
	markdown := map[string]string{} // markdown hash → the page record naming it
	for _, h := range hashes {
		v.seen[h] = true
		body, ok := bodies[h]
		if !ok {
			v.report(fmt.Sprintf("revision %s: %s record %s is missing", revID, kind, h))
			continue
		}
		if got := digest(body); got != h {
			v.report(fmt.Sprintf("revision %s: %s record %s holds bytes that hash to %s", revID, kind, h, got))
			continue
		}
		if kind == "page" {
			_, md, err := decodePage(body)
			if err != nil {
				v.report(fmt.Sprintf("revision %s: page record %s does not decode: %v", revID, h, err))
				continue
			}
			if !v.seen["md:"+md] {
				markdown[md] = h
			}
			continue
		}
		f, err := decodeFile(body)
		if err != nil {
			v.report(fmt.Sprintf("revision %s: file record %s does not decode: %v", revID, h, err))
			continue
		}
		if _, ok := v.blobs[f.Hash]; !ok {
			v.blobs[f.Hash], v.where[f.Hash] = f.Size, revID
		}
	}
	if len(markdown) == 0 {
		return nil
	}
	texts, err := v.tx.Markdown(ctx, slices.Sorted(maps.Keys(markdown)))
	if err != nil {
		return err
	}
	for md, page := range markdown {
		v.seen["md:"+md] = true
		text, ok := texts[md]
		if !ok {
			v.report(fmt.Sprintf("revision %s: the markdown %s of page record %s is missing", revID, md, page))
		} else if got := digest([]byte(text)); got != md {
			v.report(fmt.Sprintf("revision %s: the markdown %s of page record %s hashes to %s", revID, md, page, got))
		}
	}
	return nil
}

func decodeNode(body []byte) (*node, error) {
	n := new(node)
	return n, json.Unmarshal(body, n)
}
