package content

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// Delta returns the changes that turn revision from into revision to, reading only the trie
// nodes where the two differ and the records of the pages and files that changed: its cost
// follows the size of the difference, not the size of the space. A merge where only one
// side moved since the merge base is that side's delta.
func (s *Service) Delta(ctx context.Context, fromID, toID string) (Changes, error) {
	ch := Changes{Variables: map[string]json.RawMessage{}}
	tx := s.store.Read()
	from, err := tx.Revision(ctx, fromID)
	if err != nil {
		return ch, err
	}
	to, err := tx.Revision(ctx, toID)
	if err != nil {
		return ch, err
	}
	a, err := resolve(ctx, tx, from)
	if err != nil {
		return ch, err
	}
	b, err := resolve(ctx, tx, to)
	if err != nil {
		return ch, err
	}
	pages, files, err := diffRevisions(ctx, s.nodes(tx), a, b)
	if err != nil {
		return ch, err
	}
	var want []string
	for _, hs := range []map[string][2]string{pages, files} {
		for _, h := range hs {
			if h[1] != "" {
				want = append(want, h[1])
			}
		}
	}
	bodies, err := objects(ctx, tx, want)
	if err != nil {
		return ch, err
	}
	for id, h := range pages {
		rid, reusable := reusableID(id)
		if h[1] == "" {
			if reusable {
				ch.RemoveReusable = append(ch.RemoveReusable, rid)
			} else {
				ch.RemovePages = append(ch.RemovePages, id)
			}
			continue
		}
		p, mdHash, err := decodePage(bodies[h[1]])
		if err != nil {
			return ch, err
		}
		if p.Markdown, err = s.markdownText(ctx, tx, mdHash); err != nil {
			return ch, err
		}
		if reusable {
			ch.UpsertReusable = append(ch.UpsertReusable, reusableOf(p))
		} else {
			ch.UpsertPages = append(ch.UpsertPages, p)
		}
	}
	for id, h := range files {
		if h[1] == "" {
			ch.RemoveFiles = append(ch.RemoveFiles, id)
			continue
		}
		f, err := decodeFile(bodies[h[1]])
		if err != nil {
			return ch, err
		}
		ch.UpsertFiles = append(ch.UpsertFiles, f)
	}
	for k := range from.Variables {
		if _, ok := to.Variables[k]; !ok {
			ch.Variables[k] = nil
		}
	}
	for k, v := range to.Variables {
		if !bytes.Equal(compactJSON(from.Variables[k]), compactJSON(v)) {
			ch.Variables[k] = v
		}
	}
	return ch, nil
}

// trieDiff records in out, for every key whose value differs between the tries rooted at a
// and b, its value in each ("" when absent). Subtrees with equal hashes are equal and are
// skipped; two branches are compared digit by digit; anything else is compared entry by
// entry, which reads only those subtrees.
func trieDiff(ctx context.Context, get nodeSource, a, b string, out map[string][2]string) error {
	if a == b {
		return nil
	}
	if a != "" && b != "" {
		nodes, err := get(ctx, []string{a, b})
		if err != nil {
			return err
		}
		na, nb := nodes[a], nodes[b]
		if na == nil || nb == nil {
			return errors.New("content: trie node missing while comparing revisions")
		}
		if na.Children != nil && nb.Children != nil {
			for i := range fanout {
				if err := trieDiff(ctx, get, na.Children[i], nb.Children[i], out); err != nil {
					return err
				}
			}
			return nil
		}
	}
	ea, err := trieAll(ctx, get, a)
	if err != nil {
		return err
	}
	eb, err := trieAll(ctx, get, b)
	if err != nil {
		return err
	}
	for k, v := range ea {
		if eb[k] != v {
			out[k] = [2]string{v, eb[k]}
		}
	}
	for k, v := range eb {
		if _, ok := ea[k]; !ok {
			out[k] = [2]string{"", v}
		}
	}
	return nil
}
