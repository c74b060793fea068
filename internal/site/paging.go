package site

import (
	"cmp"
	"slices"

	"docsd/internal/paging"
)

// PageOf pages a list held in memory (a site's structure is small) by a unique string key:
// the cursor holds the last key shown, so a walk visits every item that exists throughout it
// exactly once.
func PageOf[T any](items []T, key func(T) string, req paging.Request) paging.Result[T] {
	sorted := slices.Clone(items)
	slices.SortFunc(sorted, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
	res := paging.Result[T]{Count: len(sorted), Items: []T{}}
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
