package markdoc

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

func TestDocumentCacheAnswersAsConversion(t *testing.T) {
	c := NewDocumentCache(1 << 20)
	md := "# Title\n\nSome *text* and [a link](https://example.com).\n\n{% include \"../.gitbook/includes/x.md\" %}\n"
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"without a resolver the include shows nothing", Options{}},
		{"a resolver naming rc1", Options{ReusableContent: func(string) string { return "rc1" }}},
		{"the same markdown against another reusable content", Options{ReusableContent: func(string) string { return "rc2" }}},
		{"back to rc1", Options{ReusableContent: func(string) string { return "rc1" }}},
		{"a resolver naming none", Options{ReusableContent: func(string) string { return "" }}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := tc.opts.ToDocument(md).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 { // a miss, then a hit
				got, err := c.JSON(tc.opts, md)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("call %d: got %s, want %s", i, got, want)
				}
			}
		})
	}
}

func TestDocumentCacheStaysWithinBudget(t *testing.T) {
	c := NewDocumentCache(64 << 10)
	for i := range 2000 {
		md := fmt.Sprintf("# Page %d\n\n%s\n", i, strings.Repeat("word ", 20))
		if _, err := c.JSON(Options{}, md); err != nil {
			t.Fatal(err)
		}
	}
	if c.bytes > c.maxBytes || len(c.entries) != c.order.Len() {
		t.Fatalf("%d bytes in %d entries (%d in order), budget %d", c.bytes, len(c.entries), c.order.Len(), c.maxBytes)
	}
	if len(c.entries) == 0 {
		t.Fatal("nothing kept")
	}
	// The newest page is kept, the oldest evicted.
	if _, ok := c.get(sha256.Sum256([]byte(fmt.Sprintf("# Page %d\n\n%s\n", 1999, strings.Repeat("word ", 20)))), Options{}); !ok {
		t.Fatal("the most recent page was evicted")
	}
	if _, ok := c.get(sha256.Sum256([]byte(fmt.Sprintf("# Page %d\n\n%s\n", 0, strings.Repeat("word ", 20)))), Options{}); ok {
		t.Fatal("the oldest page was kept past the budget")
	}
}

func TestDocumentCacheSkipsRefOptions(t *testing.T) {
	c := NewDocumentCache(1 << 20)
	o := Options{Ref: func(dest string) Ref { return Ref{Kind: "url", URL: dest + "?x"} }}
	if _, err := c.JSON(o, "[a](b)"); err != nil {
		t.Fatal(err)
	}
	if len(c.entries) != 0 {
		t.Fatal("a conversion with a Ref function was cached")
	}
}
