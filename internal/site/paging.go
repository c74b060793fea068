package site

import "docsd/internal/paging"

// PageOf pages a list held in memory (a site's structure is small); see paging.Slice.
func PageOf[T any](items []T, key func(T) string, req paging.Request) paging.Result[T] {
	return paging.Slice(items, key, req)
}
