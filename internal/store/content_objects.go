package store

import (
	"context"
	"maps"
	"slices"
	"strings"

	"docsd/internal/content"
)

// Records and markdown are content-addressed: a hash names one body forever, so inserts skip
// what is there (ON CONFLICT DO NOTHING), which also makes concurrent writers of the same
// record harmless. Rows go in in hash order: two transactions inserting overlapping sets then
// wait on one another in the same order, where any other order can deadlock on PostgreSQL.

// insertChunk is how many rows one INSERT carries; a shorter tail goes row by row, so only
// two statement shapes exist per table.
const insertChunk = 64

func (t contentTx) Objects(ctx context.Context, hashes []string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := t.selectBodies(ctx, "content_objects", hashes, func(h, body string) { out[h] = []byte(body) })
	return out, err
}

func (t contentTx) Markdown(ctx context.Context, hashes []string) (map[string]string, error) {
	out := map[string]string{}
	err := t.selectBodies(ctx, "content_markdown", hashes, func(h, body string) { out[h] = body })
	return out, err
}

func (t contentTx) selectBodies(ctx context.Context, table string, hashes []string, add func(h, body string)) error {
	for start := 0; start < len(hashes); start += 512 {
		marks, args := inList(hashes[start:min(start+512, len(hashes))])
		rows, err := t.q.Query(ctx, `SELECT hash, body FROM `+table+` WHERE hash IN (`+marks+`)`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var h, body string
			if err := rows.Scan(&h, &body); err != nil {
				rows.Close()
				return err
			}
			add(h, body)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err)
		}
	}
	return nil
}

// missing returns the hashes that table does not hold yet.
func (t contentTx) missing(ctx context.Context, table string, hashes []string) ([]string, error) {
	have := map[string]bool{}
	for start := 0; start < len(hashes); start += 512 {
		marks, args := inList(hashes[start:min(start+512, len(hashes))])
		rows, err := t.q.Query(ctx, `SELECT hash FROM `+table+` WHERE hash IN (`+marks+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return nil, err
			}
			have[h] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, mapErr(err)
		}
	}
	var out []string
	for _, h := range hashes {
		if !have[h] {
			out = append(out, h)
		}
	}
	return out, nil
}

func (t contentTx) PutObjects(ctx context.Context, objects map[string]content.Object) (int64, error) {
	hashes := slices.Sorted(maps.Keys(objects))
	todo, err := t.missing(ctx, "content_objects", hashes)
	if err != nil {
		return 0, err
	}
	var bytes int64
	rows := make([][]any, 0, len(todo))
	for _, h := range todo {
		o := objects[h]
		rows = append(rows, []any{h, o.Kind, string(o.Body)})
		bytes += int64(len(h) + len(o.Kind) + len(o.Body))
	}
	return bytes, t.insertRows(ctx, `INSERT INTO content_objects (hash, kind, body) VALUES `, "(?, ?, ?)", "hash", rows)
}

func (t contentTx) PutMarkdown(ctx context.Context, texts map[string]string) (int64, error) {
	hashes := slices.Sorted(maps.Keys(texts))
	todo, err := t.missing(ctx, "content_markdown", hashes)
	if err != nil {
		return 0, err
	}
	var bytes int64
	rows := make([][]any, 0, len(todo))
	for _, h := range todo {
		rows = append(rows, []any{h, texts[h]})
		bytes += int64(len(h) + len(texts[h]))
	}
	return bytes, t.insertRows(ctx, `INSERT INTO content_markdown (hash, body) VALUES `, "(?, ?)", "hash", rows)
}

// insertRows inserts rows in chunks, leaving out those whose key (the conflict target's
// columns) is taken.
func (t contentTx) insertRows(ctx context.Context, head, tuple, key string, rows [][]any) error {
	for len(rows) > 0 {
		n := insertChunk
		if len(rows) < insertChunk {
			n = 1
		}
		args := make([]any, 0, n*len(rows[0]))
		for _, r := range rows[:n] {
			args = append(args, r...)
		}
		query := head + strings.TrimSuffix(strings.Repeat(tuple+", ", n), ", ") + ` ON CONFLICT (` + key + `) DO NOTHING`
		if _, err := t.q.Exec(ctx, query, args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}
