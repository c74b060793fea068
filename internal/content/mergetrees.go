package content

import (
	"context"
	"errors"
	"strings"

	"docsd/internal/contenttree"
)

// markdownRef stands for a page's markdown by its hash while a merge compares trees. Stored
// markdown never contains NUL (Commit refuses it), so a reference is never mistaken for text.
func markdownRef(hash string) string { return "\x00" + hash }

// MergeTrees returns three revisions as trees for a three-way merge (contenttree.Merge). Each
// page's markdown is a reference to its text, equal exactly when the texts are, except on the
// pages whose markdown both sides changed differently: only there does a merge need the text
// (line by line), so only there is it read. ResolveMarkdown puts the text back into the
// changes taken from the result.
func (s *Service) MergeTrees(ctx context.Context, baseID, oursID, theirsID string) ([3]*contenttree.Tree, error) {
	var trees [3]*contenttree.Tree
	var snaps [3]*Snapshot
	tx := s.store.Read()
	for i, id := range []string{baseID, oursID, theirsID} {
		snap, err := s.snapshot(ctx, tx, id)
		if err != nil {
			return trees, err
		}
		snaps[i] = snap
		trees[i] = snap.Tree.Clone()
		for pid, p := range trees[i].Pages {
			p.Markdown = markdownRef(snap.markdownHashes[pid])
			trees[i].Pages[pid] = p
		}
		for rid, r := range trees[i].ReusableContents {
			r.Markdown = markdownRef(snap.markdownHashes[reusableKey(rid)])
			trees[i].ReusableContents[rid] = r
		}
	}
	var needed []string
	for id, o := range trees[1].Pages {
		t, ok := trees[2].Pages[id]
		if !ok || o.Markdown == t.Markdown {
			continue
		}
		b := "" // a page added on both sides merges against an empty text
		if bp, ok := trees[0].Pages[id]; ok {
			b = bp.Markdown
		}
		if o.Markdown != b && t.Markdown != b {
			needed = append(needed, id)
		}
	}
	// Reusable contents edited differently on both sides need their texts too; they are
	// keyed in needed by their trie keys.
	for id, o := range trees[1].ReusableContents {
		t, ok := trees[2].ReusableContents[id]
		if !ok || o.Markdown == t.Markdown {
			continue
		}
		b := ""
		if br, ok := trees[0].ReusableContents[id]; ok {
			b = br.Markdown
		}
		if o.Markdown != b && t.Markdown != b {
			needed = append(needed, reusableKey(id))
		}
	}
	var hashes []string
	for _, id := range needed {
		for i := range trees {
			if h, ok := snaps[i].markdownHashes[id]; ok {
				hashes = append(hashes, h)
			}
		}
	}
	texts, err := s.markdownTexts(ctx, hashes)
	if err != nil {
		return trees, err
	}
	for _, id := range needed {
		for i := range trees {
			if rid, ok := reusableID(id); ok {
				if r, ok := trees[i].ReusableContents[rid]; ok {
					r.Markdown = texts[snaps[i].markdownHashes[id]]
					trees[i].ReusableContents[rid] = r
				}
				continue
			}
			if p, ok := trees[i].Pages[id]; ok {
				p.Markdown = texts[snaps[i].markdownHashes[id]]
				trees[i].Pages[id] = p
			}
		}
	}
	return trees, nil
}

// ResolveMarkdown replaces the markdown references MergeTrees left in ch's pages with text.
func (s *Service) ResolveMarkdown(ctx context.Context, ch *Changes) error {
	var hashes []string
	for _, p := range ch.UpsertPages {
		if h, ok := strings.CutPrefix(p.Markdown, "\x00"); ok {
			hashes = append(hashes, h)
		}
	}
	for _, r := range ch.UpsertReusable {
		if h, ok := strings.CutPrefix(r.Markdown, "\x00"); ok {
			hashes = append(hashes, h)
		}
	}
	texts, err := s.markdownTexts(ctx, hashes)
	if err != nil {
		return err
	}
	for i, p := range ch.UpsertPages {
		if h, ok := strings.CutPrefix(p.Markdown, "\x00"); ok {
			ch.UpsertPages[i].Markdown = texts[h]
		}
	}
	for i, r := range ch.UpsertReusable {
		if h, ok := strings.CutPrefix(r.Markdown, "\x00"); ok {
			ch.UpsertReusable[i].Markdown = texts[h]
		}
	}
	return nil
}

// markdownTexts reads texts by hash, through the cache, the rest in batches.
func (s *Service) markdownTexts(ctx context.Context, hashes []string) (map[string]string, error) {
	out := make(map[string]string, len(hashes))
	var missing []string
	for _, h := range hashes {
		if text, ok := s.markdown.get(h); ok {
			out[h] = text
		} else if _, dup := out[h]; !dup {
			missing = append(missing, h)
		}
	}
	tx := s.store.Read()
	for start := 0; start < len(missing); start += batchSize {
		got, err := tx.Markdown(ctx, missing[start:min(start+batchSize, len(missing))])
		if err != nil {
			return nil, err
		}
		for h, t := range got {
			out[h] = t
		}
	}
	for _, h := range hashes {
		if _, ok := out[h]; !ok {
			return nil, errors.New("content: markdown " + h + " is missing")
		}
	}
	return out, nil
}
