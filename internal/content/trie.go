package content

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
)

// A revision maps page ids (and file ids) to record hashes through a persistent hash trie of
// fanout 16, stored as content-addressed nodes. The key's place is decided by the sha256 of
// the key, one hex digit per level. A node whose subtree holds at most leafMax entries is a
// leaf listing them; a larger one is a branch of 16 children. The shape therefore depends
// only on the entries, never on the history of edits, so equal maps have equal root hashes
// and a change rewrites only the nodes on the paths of the keys it touches.
const (
	fanout  = 16
	leafMax = 32
)

// node is one trie node as stored. A leaf has Entries (sorted by key); a branch has Children
// (hash or "" per digit) and Count, the number of entries below it.
type node struct {
	Entries  [][2]string `json:"e,omitempty"`
	Children []string    `json:"c,omitempty"`
	Count    int         `json:"n,omitempty"`
}

func (n *node) size() int {
	if n.Children != nil {
		return n.Count
	}
	return len(n.Entries)
}

// nodeSource fetches stored nodes by hash, in bulk.
type nodeSource func(ctx context.Context, hashes []string) (map[string]*node, error)

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// digitAt is the key's branch at depth d.
func digitAt(key string, d int) int {
	sum := sha256.Sum256([]byte(key))
	b := sum[d/2]
	if d%2 == 0 {
		return int(b >> 4)
	}
	return int(b & 0x0f)
}

func encodeNode(n *node) (string, []byte) {
	b, _ := json.Marshal(n) // a node holds only strings and ints
	return digest(b), b
}

// trieAll returns every entry under root, fetching one level of nodes per round trip.
func trieAll(ctx context.Context, get nodeSource, root string) (map[string]string, error) {
	out := map[string]string{}
	level := []string{}
	if root != "" {
		level = append(level, root)
	}
	for len(level) > 0 {
		nodes, err := get(ctx, level)
		if err != nil {
			return nil, err
		}
		var next []string
		for _, h := range level {
			n := nodes[h]
			if n == nil {
				return nil, fmt.Errorf("content: trie node %s is missing", h)
			}
			for _, e := range n.Entries {
				out[e[0]] = e[1]
			}
			for _, c := range n.Children {
				if c != "" {
					next = append(next, c)
				}
			}
		}
		level = next
	}
	return out, nil
}

// trieGet returns the value of one key, reading only the nodes on its path.
func trieGet(ctx context.Context, get nodeSource, root, key string) (string, bool, error) {
	for d, h := 0, root; h != ""; d++ {
		nodes, err := get(ctx, []string{h})
		if err != nil {
			return "", false, err
		}
		n := nodes[h]
		if n == nil {
			return "", false, fmt.Errorf("content: trie node %s is missing", h)
		}
		if n.Children == nil {
			i, found := slices.BinarySearchFunc(n.Entries, key, func(e [2]string, k string) int { return cmpStr(e[0], k) })
			if !found {
				return "", false, nil
			}
			return n.Entries[i][1], true, nil
		}
		h = n.Children[digitAt(key, d)]
	}
	return "", false, nil
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// trieWriter applies changes to a trie and collects the nodes it creates.
type trieWriter struct {
	get     nodeSource
	created map[string][]byte // encoded new nodes, to store
	fresh   map[string]*node  // the same, decoded, for reading back within the write
}

func newTrieWriter(get nodeSource) *trieWriter {
	return &trieWriter{get: get, created: map[string][]byte{}, fresh: map[string]*node{}}
}

// fetch reads nodes made by this write from memory, the others from get.
func (w *trieWriter) fetch(ctx context.Context, hashes []string) (map[string]*node, error) {
	out := map[string]*node{}
	var rest []string
	for _, h := range hashes {
		if n, ok := w.fresh[h]; ok {
			out[h] = n
		} else {
			rest = append(rest, h)
		}
	}
	if len(rest) == 0 {
		return out, nil
	}
	got, err := w.get(ctx, rest)
	if err != nil {
		return nil, err
	}
	for h, n := range got {
		out[h] = n
	}
	return out, nil
}

// apply sets (value != "") or removes (value == "") keys under the node at root, at depth d,
// and returns the new node's hash ("" for an empty trie).
func (w *trieWriter) apply(ctx context.Context, root string, d int, changes map[string]string) (string, error) {
	var n *node
	if root != "" {
		nodes, err := w.fetch(ctx, []string{root})
		if err != nil {
			return "", err
		}
		if n = nodes[root]; n == nil {
			return "", fmt.Errorf("content: trie node %s is missing", root)
		}
	}
	if n == nil || n.Children == nil {
		entries := map[string]string{}
		if n != nil {
			for _, e := range n.Entries {
				entries[e[0]] = e[1]
			}
		}
		for k, v := range changes {
			if v == "" {
				delete(entries, k)
			} else {
				entries[k] = v
			}
		}
		return w.build(entries, d), nil
	}
	groups := make([]map[string]string, fanout)
	for k, v := range changes {
		g := digitAt(k, d)
		if groups[g] == nil {
			groups[g] = map[string]string{}
		}
		groups[g][k] = v
	}
	next := &node{Children: slices.Clone(n.Children)}
	for i, g := range groups {
		if g == nil {
			continue
		}
		h, err := w.apply(ctx, n.Children[i], d+1, g)
		if err != nil {
			return "", err
		}
		next.Children[i] = h
	}
	nodes, err := w.childNodes(ctx, next.Children)
	if err != nil {
		return "", err
	}
	for _, c := range nodes {
		next.Count += c.size()
	}
	if next.Count <= leafMax {
		// Deletions shrank the subtree: fold it back into a leaf, as a fresh build would.
		entries := map[string]string{}
		for _, c := range nodes {
			for _, e := range c.Entries {
				entries[e[0]] = e[1]
			}
		}
		return w.build(entries, d), nil
	}
	return w.put(next), nil
}

func (w *trieWriter) childNodes(ctx context.Context, children []string) ([]*node, error) {
	var hs []string
	for _, c := range children {
		if c != "" {
			hs = append(hs, c)
		}
	}
	got, err := w.fetch(ctx, hs)
	if err != nil {
		return nil, err
	}
	out := make([]*node, 0, len(hs))
	for _, h := range hs {
		n := got[h]
		if n == nil {
			return nil, fmt.Errorf("content: trie node %s is missing", h)
		}
		out = append(out, n)
	}
	return out, nil
}

// build makes the canonical subtree holding entries at depth d.
func (w *trieWriter) build(entries map[string]string, d int) string {
	if len(entries) == 0 {
		return ""
	}
	if len(entries) <= leafMax || d >= 2*sha256.Size {
		n := &node{Entries: make([][2]string, 0, len(entries))}
		for k, v := range entries {
			n.Entries = append(n.Entries, [2]string{k, v})
		}
		slices.SortFunc(n.Entries, func(a, b [2]string) int { return cmpStr(a[0], b[0]) })
		return w.put(n)
	}
	groups := make([]map[string]string, fanout)
	for k, v := range entries {
		g := digitAt(k, d)
		if groups[g] == nil {
			groups[g] = map[string]string{}
		}
		groups[g][k] = v
	}
	n := &node{Children: make([]string, fanout), Count: len(entries)}
	for i, g := range groups {
		n.Children[i] = w.build(g, d+1)
	}
	return w.put(n)
}

func (w *trieWriter) put(n *node) string {
	h, b := encodeNode(n)
	w.created[h] = b
	w.fresh[h] = n
	return h
}
