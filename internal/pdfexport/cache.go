package pdfexport

import (
	"strconv"
	"sync"
)

// renderedMax bounds the bytes of drawn PDFs kept in memory.
const renderedMax = 64 << 20

// renderedCache keeps drawn PDFs by what they show, so that fetching a link again (a viewer
// reloading, several people given the same link) does not draw a large document again. It
// is a per-process optimisation only: any process can draw any link.
type renderedCache struct {
	mu    sync.Mutex
	m     map[string][]byte
	bytes int
}

func renderedKey(t Ticket) string {
	return t.Revision + "\x00" + t.Page + "\x00" + strconv.FormatBool(t.Only) + "\x00" + t.Title
}

func (c *renderedCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b, ok
}

// put keeps b unless it alone exceeds the bound; when full, it drops arbitrary entries.
func (c *renderedCache) put(key string, b []byte) {
	if len(b) > renderedMax/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	if old, ok := c.m[key]; ok {
		c.bytes -= len(old)
	}
	for k, old := range c.m {
		if c.bytes+len(b) <= renderedMax {
			break
		}
		delete(c.m, k)
		c.bytes -= len(old)
	}
	c.m[key] = b
	c.bytes += len(b)
}
