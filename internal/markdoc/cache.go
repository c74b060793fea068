package markdoc

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// DocumentCache keeps the encoded Document of markdown already converted, by the markdown's
// hash: a page read then parses a page once, not on every request. Content-addressed, an
// entry can never be stale; what the conversion asked of Options.ReusableContent is kept with
// it and asked again on a hit, so a revision whose includes name other reusable contents
// converts afresh. Conversions with an Options.Ref function are not cached (a function says
// nothing of what it answers). Memory is bounded: least recently used entries go first.
type DocumentCache struct {
	maxBytes int

	mu      sync.Mutex
	entries map[[sha256.Size]byte]*list.Element
	order   list.List // front: most recently used; values are *cachedDocument
	bytes   int
}

type cachedDocument struct {
	key      [sha256.Size]byte
	resolver bool // whether the conversion had an Options.ReusableContent
	includes []includeLookup
	json     []byte
}

// includeLookup is one answer of Options.ReusableContent the conversion depended on.
type includeLookup struct{ path, id string }

// cacheEntryOverhead approximates an entry's bookkeeping beside its JSON, so many tiny pages
// cannot exceed the budget.
const cacheEntryOverhead = 128

// NewDocumentCache returns a cache holding about maxBytes of encoded documents.
func NewDocumentCache(maxBytes int) *DocumentCache {
	return &DocumentCache{maxBytes: maxBytes, entries: map[[sha256.Size]byte]*list.Element{}}
}

// JSON returns markdown's Document encoded as o.ToDocument(markdown).MarshalJSON would. The
// slice is shared: callers must not modify it.
func (c *DocumentCache) JSON(o Options, markdown string) ([]byte, error) {
	if c == nil || o.Ref != nil {
		return o.ToDocument(markdown).MarshalJSON()
	}
	key := sha256.Sum256([]byte(markdown))
	if b, ok := c.get(key, o); ok {
		return b, nil
	}
	var seen []includeLookup
	if resolve := o.ReusableContent; resolve != nil {
		o.ReusableContent = func(path string) string {
			id := resolve(path)
			seen = append(seen, includeLookup{path, id})
			return id
		}
	}
	b, err := o.ToDocument(markdown).MarshalJSON()
	if err != nil {
		return nil, err
	}
	c.put(&cachedDocument{key: key, resolver: o.ReusableContent != nil, includes: seen, json: b})
	return b, nil
}

func (c *DocumentCache) get(key [sha256.Size]byte, o Options) ([]byte, bool) {
	c.mu.Lock()
	el, ok := c.entries[key]
	if !ok {
		c.mu.Unlock()
		return nil, false
	}
	c.order.MoveToFront(el)
	d := el.Value.(*cachedDocument)
	c.mu.Unlock()
	if d.resolver != (o.ReusableContent != nil) {
		return nil, false
	}
	for _, l := range d.includes {
		if o.ReusableContent(l.path) != l.id {
			return nil, false
		}
	}
	return d.json, true
}

func (c *DocumentCache) put(d *cachedDocument) {
	size := len(d.json) + cacheEntryOverhead
	if size > c.maxBytes/8 {
		return // one huge page must not flush every other
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[d.key]; ok {
		// Same markdown, converted against other includes: the newer answer replaces it.
		c.bytes -= len(el.Value.(*cachedDocument).json) + cacheEntryOverhead
		el.Value = d
		c.order.MoveToFront(el)
	} else {
		c.entries[d.key] = c.order.PushFront(d)
	}
	c.bytes += size
	for c.bytes > c.maxBytes {
		last := c.order.Back()
		old := last.Value.(*cachedDocument)
		c.order.Remove(last)
		delete(c.entries, old.key)
		c.bytes -= len(old.json) + cacheEntryOverhead
	}
}
