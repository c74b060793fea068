package pdfexport

import (
	"fmt"
	"testing"
)

func TestRenderedCacheHoldsItsBound(t *testing.T) {
	var c renderedCache
	doc := make([]byte, renderedMax/8)
	for i := range 20 {
		c.put(fmt.Sprint(i), doc)
		if c.bytes > renderedMax || c.bytes != len(c.m)*len(doc) {
			t.Fatalf("after %d puts: %d bytes in %d entries", i+1, c.bytes, len(c.m))
		}
	}
	if _, ok := c.get("19"); !ok {
		t.Fatal("the latest entry is gone")
	}
	c.put("huge", make([]byte, renderedMax/2))
	if _, ok := c.get("huge"); ok {
		t.Fatal("a document over a quarter of the bound was kept")
	}
}
