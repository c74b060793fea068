// Package paging implements the list envelope's pagination: keyset pages and the opaque,
// signed cursors that carry a page's position.
//
// A list is ordered by a unique key (its sort columns plus the id). A cursor holds the key of
// the last item shown, so the next page starts strictly after it: every item that exists for
// the whole walk is visited exactly once, whatever is inserted or deleted meanwhile.
package paging

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"docsd/internal/apperr"
)

// DefaultLimit is the page size when a request names none.
const DefaultLimit = 100

// MaxLimit is the largest page size a request may ask for.
const MaxLimit = 1000

// Request is a page request as the store sees it.
type Request struct {
	Limit int   // 0..MaxLimit
	After []any // key of the last item of the previous page; nil for the first page
}

// Result is one page of a list.
type Result[T any] struct {
	Items []T
	Count int   // total number of items in the list, all pages together
	Next  []any // key of the last item when more items follow; nil on the last page
}

// Codec signs and verifies cursors with a server-wide key.
type Codec struct{ key []byte }

// NewCodec returns a codec using key (shared by every process of a fleet).
func NewCodec(key []byte) *Codec { return &Codec{key: key} }

type payload struct {
	List string `json:"l"`
	Key  []any  `json:"k"`
}

// Encode returns the cursor for the page after key in the list identified by list.
func (c *Codec) Encode(list string, key []any) string {
	body, _ := json.Marshal(payload{List: list, Key: key})
	enc := base64.RawURLEncoding.EncodeToString(body)
	return enc + "." + base64.RawURLEncoding.EncodeToString(c.sign(enc))
}

func (c *Codec) sign(s string) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write([]byte(s))
	return m.Sum(nil)[:16]
}

// Decode verifies a cursor and returns its key. A cursor that was altered, or that belongs to
// another list (another resource, filter or sort), is refused.
func (c *Codec) Decode(list, cursor string) ([]any, error) {
	bad := apperr.Invalidf("page: not a valid page cursor for this list")
	enc, sig, ok := strings.Cut(cursor, ".")
	if !ok {
		return nil, bad
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, c.sign(enc)) {
		return nil, bad
	}
	body, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return nil, bad
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var p payload
	if err := dec.Decode(&p); err != nil || p.List != list || len(p.Key) == 0 {
		return nil, bad
	}
	for i, v := range p.Key {
		if n, ok := v.(json.Number); ok {
			iv, err := strconv.ParseInt(n.String(), 10, 64)
			if err != nil {
				return nil, bad
			}
			p.Key[i] = iv
		}
	}
	return p.Key, nil
}

// ParseLimit reads the `limit` query value.
func ParseLimit(s string) (int, error) {
	if s == "" {
		return DefaultLimit, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != float64(int(f)) {
			return 0, apperr.Invalidf("limit: must be an integer from 0 to %d (got %q)", MaxLimit, s)
		}
		n = int(f)
	}
	if n < 0 || n > MaxLimit {
		return 0, apperr.Invalidf("limit: must be from 0 to %d (got %d)", MaxLimit, n)
	}
	return n, nil
}

// Slice pages a list held in memory by a unique string key: the cursor holds the last key
// shown, so a walk visits every item that exists throughout it exactly once.
func Slice[T any](items []T, key func(T) string, req Request) Result[T] {
	sorted := slices.Clone(items)
	slices.SortFunc(sorted, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
	res := Result[T]{Count: len(sorted), Items: []T{}}
	if req.Limit == 0 { // the count alone, as for lists paged in the database
		return res
	}
	after := ""
	if len(req.After) == 1 {
		after, _ = req.After[0].(string)
	}
	for _, it := range sorted {
		k := key(it)
		if after != "" && k <= after {
			continue
		}
		if len(res.Items) == req.Limit {
			res.Next = []any{key(res.Items[len(res.Items)-1])}
			break
		}
		res.Items = append(res.Items, it)
	}
	return res
}
