package content

import (
	"context"
	"errors"
	"maps"
	"strings"

	"docsd/internal/contenttree"
)

// markdownRef stands for a page's markdown by its hash while a merge compares trees. Stored
// markdown never contains NUL (Commit refuses it), so a reference is never mistaken for text.
func markdownRef(hash string) string { return "\x00" + hash }

// MergeTrees returns three revisions as trees for a three-way merge (contenttree.Merge):
// not whole, but the part a merge can touch. The revisions' page and file tries are compared
// with the base's, skipping every subtree whose hash is equal on both sides (trieDiff), so
// only what a side changed is looked at; each tree then holds the pages either side changed,
// with their siblings, children and ancestors in each revision (what the merge's structure
// checks look at: slugs among siblings, parents, cycles, nesting), the files and reusable
// contents either side changed, and the variables. Everything else is the same in the three
// revisions, so it merges to itself and the changes the merge makes to ours are the same as
// on whole trees: the cost follows the size of the changes, not of the space.
//
// Each page's markdown is a reference to its text, equal exactly when the texts are, except
// on the pages whose markdown both sides changed differently: only there does a merge need
// the text (line by line), so only there is it read. ResolveMarkdown puts the text back into
// the changes taken from the result.
func (s *Service) MergeTrees(ctx context.Context, baseID, oursID, theirsID string) ([3]*contenttree.Tree, error) {
	var trees [3]*contenttree.Tree
	var views [3]*View
	var stored [3]storedRevision
	tx := s.store.Read()
	for i, id := range []string{baseID, oursID, theirsID} {
		v, err := s.view(ctx, tx, id)
		if err != nil {
			return trees, err
		}
		views[i] = v
		if stored[i], err = resolveID(ctx, tx, id); err != nil {
			return trees, err
		}
	}
	pageKeys, fileIDs := map[string]bool{}, map[string]bool{}
	for _, side := range stored[1:] {
		pages, files, err := diffRevisions(ctx, s.nodes(tx), stored[0], side)
		if err != nil {
			return trees, err
		}
		for k := range pages {
			pageKeys[k] = true
		}
		for id := range files {
			fileIDs[id] = true
		}
	}
	trees = neighbourhoodTrees(views, pageKeys, fileIDs)
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
		for _, v := range views {
			if h := v.markdownHash(id); h != "" {
				hashes = append(hashes, h)
			}
		}
	}
	texts, err := s.markdownTexts(ctx, hashes)
	if err != nil {
		return trees, err
	}
	for _, id := range needed {
		for i, v := range views {
			if rid, ok := reusableID(id); ok {
				if r, ok := trees[i].ReusableContents[rid]; ok {
					r.Markdown = texts[v.markdownHash(id)]
					trees[i].ReusableContents[rid] = r
				}
				continue
			}
			if p, ok := trees[i].Pages[id]; ok {
				p.Markdown = texts[v.markdownHash(id)]
				trees[i].Pages[id] = p
			}
		}
	}
	return trees, nil
}

// neighbourhoodTrees returns the part of views (base, ours, theirs) a merge can touch, given
// the page trie keys and file ids either side changed (see MergeTrees), with markdown
// references for texts.
func neighbourhoodTrees(views [3]*View, pageKeys, fileIDs map[string]bool) [3]*contenttree.Tree {
	var trees [3]*contenttree.Tree
	pageIDs := mergeNeighbourhood(views, pageKeys)
	for i, v := range views {
		t := contenttree.New()
		maps.Copy(t.Variables, v.variables())
		for id := range pageIDs {
			if p, ok := v.Page(id); ok {
				p.Variables = maps.Clone(p.Variables)
				p.Markdown = markdownRef(v.markdownHash(id))
				t.Pages[id] = p
			}
		}
		for key := range pageKeys {
			rid, ok := reusableID(key)
			if !ok {
				continue
			}
			if r, ok := v.reusable(rid); ok {
				r.Markdown = markdownRef(v.markdownHash(key))
				t.ReusableContents[rid] = r
			}
		}
		for id := range fileIDs {
			if f, ok := v.file(id); ok {
				t.Files[id] = f
			}
		}
		trees[i] = t
	}
	return trees
}

// mergeNeighbourhood returns the pages a merge of views (base, ours, theirs) must see, given
// the trie keys either side changed: those pages; the children they have in each revision
// (whose parent may be gone, or have become a link); where a side added a page or gave it
// another parent or slug, the pages under that parent (slugs are unique among siblings, and
// only such a page can newly share one); and the ancestors of all of these (for paths,
// cycles and nesting). A page outside it is the same in the three revisions, and so is its
// parent. A page whose only change is its text or its other fields thus costs a handful of
// lookups, however many siblings it has.
func mergeNeighbourhood(views [3]*View, changed map[string]bool) map[string]bool {
	near := map[string]bool{}
	for key := range changed {
		if _, ok := reusableID(key); ok {
			continue
		}
		near[key] = true
		for _, v := range views {
			for _, child := range v.Children(key) {
				near[child] = true
			}
		}
		b, inBase := views[0].Page(key)
		for _, side := range views[1:] {
			p, ok := side.Page(key)
			if !ok || inBase && p.ParentID == b.ParentID && p.Slug == b.Slug {
				continue
			}
			for _, v := range views {
				for _, sib := range v.Children(p.ParentID) {
					near[sib] = true
				}
			}
		}
	}
	// Ancestors, in each revision, up to the top or a page already taken.
	var ancestors []string
	for id := range near {
		for _, v := range views {
			for p, ok := v.Page(id); ok && p.ParentID != "" && !near[p.ParentID]; p, ok = v.Page(p.ParentID) {
				ancestors = append(ancestors, p.ParentID)
				near[p.ParentID] = true
			}
		}
	}
	// An ancestor taken from one revision has its own ancestors in the others: take them too.
	for len(ancestors) > 0 {
		id := ancestors[len(ancestors)-1]
		ancestors = ancestors[:len(ancestors)-1]
		for _, v := range views {
			if p, ok := v.Page(id); ok && p.ParentID != "" && !near[p.ParentID] {
				near[p.ParentID] = true
				ancestors = append(ancestors, p.ParentID)
			}
		}
	}
	return near
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
