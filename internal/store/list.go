package store

import (
	"time"

	"context"
	"strings"

	"docsd/internal/paging"
)

// List describes one keyset-paginated list query.
//
//	From:  "FROM members m JOIN users u ON u.id = m.user_id"
//	Where: conditions joined with AND (may be empty), with their Args
//	Order: the unique ordering key's columns, e.g. {"m.joined_at", "m.user_id"}
//	Desc:  descending order on every key column
//	CountFrom: optional FROM for the count query, for lists whose joins only add columns
//	       (never filter or multiply rows) so the count can skip them
type List struct {
	Select    string
	From      string
	Where     []string
	Args      []any
	Order     []string
	Desc      bool
	CountFrom string
}

// Page runs the list for one page. scan reads one row and returns the item and its ordering
// key (the values of Order, in order). The total count ignores the page position.
func Page[T any](ctx context.Context, q *Q, l List, page paging.Request, scan func(func(...any) error) (T, []any, error)) (paging.Result[T], error) {
	res := paging.Result[T]{Items: []T{}}
	where := ""
	if len(l.Where) > 0 {
		where = " WHERE " + strings.Join(l.Where, " AND ")
	}
	countFrom := l.From
	if l.CountFrom != "" {
		countFrom = l.CountFrom
	}
	if err := q.QueryRow(ctx, `SELECT COUNT(*) `+countFrom+where, l.Args...).Scan(&res.Count); err != nil {
		return res, err
	}
	if page.Limit == 0 || res.Count == 0 {
		return res, nil
	}
	conds := append([]string(nil), l.Where...)
	args := append([]any(nil), l.Args...)
	if page.After != nil && len(page.After) == len(l.Order) {
		op := " > "
		if l.Desc {
			op = " < "
		}
		conds = append(conds, "("+strings.Join(l.Order, ", ")+")"+op+"("+strings.TrimSuffix(strings.Repeat("?, ", len(l.Order)), ", ")+")")
		args = append(args, page.After...)
	}
	where = ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	dir := " ASC"
	if l.Desc {
		dir = " DESC"
	}
	order := make([]string, len(l.Order))
	for i, c := range l.Order {
		order[i] = c + dir
	}
	args = append(args, page.Limit+1)
	rows, err := q.Query(ctx, `SELECT `+l.Select+` `+l.From+where+` ORDER BY `+strings.Join(order, ", ")+` LIMIT ?`, args...)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	var lastKey []any
	for rows.Next() {
		if len(res.Items) == page.Limit {
			res.Next = lastKey
			break
		}
		item, key, err := scan(rows.Scan)
		if err != nil {
			return res, err
		}
		res.Items = append(res.Items, item)
		lastKey = key
	}
	return res, mapErr(rows.Err())
}

// Like builds a case-insensitive "contains" pattern for `LOWER(col) LIKE ? ESCAPE '\'`.
func Like(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// pageByCreation pages l in creation order (created_at, then id; l.Desc for newest first),
// the order of most lists: scan reads a row, created names its position.
func pageByCreation[T any](ctx context.Context, q *Q, l List, page paging.Request, scan func(func(...any) error) (T, error), created func(T) (time.Time, string)) (paging.Result[T], error) {
	l.Order = []string{"created_at", "id"}
	return Page(ctx, q, l, page, func(s func(...any) error) (T, []any, error) {
		v, err := scan(s)
		at, id := created(v)
		return v, []any{Micros(at), id}, err
	})
}
