package markdoc

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
)

// Keys identify nodes across conversions of the same markdown, so that comments and other
// references to a block survive re-deriving the document. A block's key hashes the types of
// the blocks above it, its own type, data and text, and how many blocks before it in the page
// had all of those the same. So a block keeps its key when other blocks are added, removed,
// moved or edited, and only an edit of the block itself (or of what it sits in) changes it.
// Inlines and fragments are keyed by their owner's key and their position in it.

func assignKeys(nodes []*Node) {
	k := keyer{seen: map[string]int{}}
	k.blocks(nodes, "")
}

type keyer struct {
	seen map[string]int
}

func (k *keyer) blocks(nodes []*Node, scope string) {
	for _, n := range nodes {
		if n.Object != ObjectBlock {
			continue
		}
		data, _ := json.Marshal(n.Data)
		signature := scope + "\x00" + n.Type + "\x00" + string(data) + "\x00" + nodeText(n)
		occurrence := k.seen[signature]
		k.seen[signature]++
		n.Key = hashKey(signature, strconv.Itoa(occurrence))
		inner := scope + "/" + n.Type
		k.blocks(n.Nodes, inner)
		k.inlines(n)
		k.fragments(n, inner)
	}
}

func (k *keyer) inlines(owner *Node) {
	for i, n := range owner.Nodes {
		if n.Object != ObjectInline {
			continue
		}
		n.Key = hashKey(owner.Key, "inline", strconv.Itoa(i))
		k.inlines(n)
		k.fragments(n, "inline/"+n.Type)
	}
}

func (k *keyer) fragments(owner *Node, scope string) {
	for i, f := range owner.Fragments {
		f.Key = hashKey(owner.Key, "fragment", strconv.Itoa(i))
		k.blocks(f.Nodes, scope+"#"+f.Fragment)
	}
}

// hashKey returns 12 hex digits of the SHA-256 of parts.
func hashKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}
