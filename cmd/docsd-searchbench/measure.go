package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	_ "modernc.org/sqlite"
)

// queryClass is a way of picking the two words of a query.
type queryClass struct {
	name string
	pick func(b *bench) (string, string)
}

// Words drawn as they occur in the text (the hard case: many pairs of very common words),
// one such word with one picked evenly from the vocabulary, and two mid-frequency words (what
// people tend to type).
var queryClasses = []queryClass{
	{"frequent + frequent", func(b *bench) (string, string) { return b.vocab.word(), b.vocab.word() }},
	{"frequent + any", func(b *bench) (string, string) {
		return b.vocab.word(), b.vocab.words[b.rng.IntN(len(b.vocab.words))]
	}},
	{"mid + mid", func(b *bench) (string, string) {
		return b.vocab.words[100+b.rng.IntN(4900)], b.vocab.words[100+b.rng.IntN(4900)]
	}},
}

type sample struct {
	class     int
	query     string
	ours, raw time.Duration
	found     bool
	first     []string // the ids of the answer's first pages
	recall    float64  // recall@20 of first against exact ranking (measureRecall)
}

type queryResults struct {
	samples []sample
}

func (b *bench) queries(n int, seen map[string]bool) []struct {
	class int
	q     string
} {
	var out []struct {
		class int
		q     string
	}
	for len(out) < n {
		c := len(out) % len(queryClasses)
		w1, w2 := queryClasses[c].pick(b)
		q := w1 + " " + w2
		if w1 == w2 || seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, struct {
			class int
			q     string
		}{c, q})
	}
	return out
}

// measureQueries runs each query once through HTTP and once raw, alternating, so that the
// machine's other load falls on both alike. Every query is distinct, so no answer comes from
// docsd's GET answer cache.
func (b *bench) measureQueries(ctx context.Context) (queryResults, error) {
	raw, err := openRaw(b.app.Config.DatabaseURL)
	if err != nil {
		return queryResults{}, err
	}
	defer raw.Close()
	stmt, err := raw.PrepareContext(ctx, `SELECT rowid, bm25(search_fts, 0.0, 10.0, 1.0) AS r FROM search_fts
		WHERE search_fts MATCH ? ORDER BY r LIMIT 20`)
	if err != nil {
		return queryResults{}, err
	}
	defer stmt.Close()
	seen := map[string]bool{}
	warm := b.queries(100, seen)
	measured := b.queries(b.o.Queries, seen)
	var res queryResults
	logf("running %d warm-up and %d measured queries", len(warm), len(measured))
	rawQuery := func(q string) (time.Duration, error) {
		start := time.Now()
		rows, err := stmt.QueryContext(ctx, fmt.Sprintf(`{title body} : (%q AND %q)`, words(q)[0], words(q)[1]))
		if err != nil {
			return 0, err
		}
		for rows.Next() {
		}
		rows.Close()
		return time.Since(start), rows.Err()
	}
	for i, q := range append(warm, measured...) {
		// Whichever runs second finds the query's pages and words warm from the first: the
		// two take turns going first.
		var rawTime time.Duration
		if i%2 == 1 {
			if rawTime, err = rawQuery(q.q); err != nil {
				return res, err
			}
		}
		status, body, ours, err := b.do(ctx, "GET", searchPath(b.big, q.q), "")
		if err != nil || status != 200 {
			return res, fmt.Errorf("query %q: status %d, %v: %s", q.q, status, err, body)
		}
		if i%2 == 0 {
			if rawTime, err = rawQuery(q.q); err != nil {
				return res, err
			}
		}
		var list struct {
			Count int `json:"count"`
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			return res, err
		}
		if i < len(warm) {
			continue
		}
		var first []string
		for _, it := range list.Items[:min(len(list.Items), recallAt)] {
			first = append(first, it.ID)
		}
		res.samples = append(res.samples, sample{class: q.class, query: q.q, ours: ours, raw: rawTime,
			found: list.Count > 0, first: first})
	}
	return res, nil
}

// measureRecall ranks every match of each measured query exactly and sets its recall. It runs
// after the timed queries, not between them: reading every match of a common-word query
// evicted the caches and left garbage that the next timed query then paid to collect.
func (b *bench) measureRecall(ctx context.Context, res *queryResults) error {
	raw, err := openRaw(b.app.Config.DatabaseURL)
	if err != nil {
		return err
	}
	defer raw.Close()
	for i := range res.samples {
		s := &res.samples[i]
		exact, err := exactRanking(ctx, raw, b.big, s.query, recallAt)
		if err != nil {
			return err
		}
		s.recall = recall(s.first, exact)
	}
	return nil
}

func words(q string) [2]string {
	var w [2]string
	fmt.Sscan(q, &w[0], &w[1])
	return w
}

type updateResults struct {
	pages   int
	index   []time.Duration // the index update after each merge
	merge   []time.Duration // the whole merge request, index update included
	checked int             // merges whose new word was found right after
}

// measureUpdates merges one-page change requests through HTTP into each space and times the
// index update that follows each: the search consumer's work for the merge's event, made here
// right after the merge answers (the outbox's background runner is stopped so that it does
// not make it first). The time includes the upkeep of the ranking (a batch of the champion
// lists, every few merges), which the consumer makes too. The merge column is the merge
// request and its index update together.
func (b *bench) measureUpdates(ctx context.Context) ([]updateResults, error) {
	b.app.Outbox.Stop()
	var out []updateResults
	for _, sp := range []struct {
		id    string
		pages int
	}{{b.small, b.o.SmallPages}, {b.big, b.o.Pages}} {
		r := updateResults{pages: sp.pages}
		for i := range b.o.Merges + 2 {
			base := "/v1/spaces/" + sp.id + "/change-requests"
			status, body, _, err := b.do(ctx, "POST", base, `{"subject":"bench"}`)
			if err != nil || status != 201 {
				return nil, fmt.Errorf("create change request: %d %v %s", status, err, body)
			}
			var cr struct{ ID string }
			json.Unmarshal(body, &cr)
			word := fmt.Sprintf("benchmark%dword%dx%d", sp.pages, i, time.Now().UnixNano())
			page := fmt.Sprintf("page%06d", b.rng.IntN(sp.pages))
			md, _ := json.Marshal(map[string]string{"markdown": b.vocab.text(60) + "\n\n## Changed\n\n" + word + " " + b.vocab.text(40) + "\n"})
			if status, body, _, err = b.do(ctx, "PATCH", base+"/"+cr.ID+"/pages/"+page, string(md)); err != nil || status != 200 {
				return nil, fmt.Errorf("edit page: %d %v %s", status, err, body)
			}
			status, body, took, err := b.do(ctx, "POST", base+"/"+cr.ID+"/merge", "")
			if err != nil || status != 200 {
				return nil, fmt.Errorf("merge: %d %v %s", status, err, body)
			}
			start := time.Now()
			if err := b.app.Search.Refresh(ctx, sp.id, 50); err != nil {
				logf("index update of %s: %v", sp.id, err)
			}
			if err := b.app.Search.MaintainRanking(ctx); err != nil {
				logf("ranking upkeep after %s: %v", sp.id, err)
			}
			indexTime := time.Since(start)
			took += indexTime
			status, body, _, err = b.do(ctx, "GET", searchPath(sp.id, word), "")
			if err != nil || status != 200 {
				return nil, fmt.Errorf("search after merge: %d %v %s", status, err, body)
			}
			var list struct{ Count int }
			json.Unmarshal(body, &list)
			if i < 2 { // warm-up
				continue
			}
			r.index = append(r.index, indexTime)
			r.merge = append(r.merge, took)
			if list.Count == 1 {
				r.checked++
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// quantile returns the q-quantile (0..1) of ds by the nearest-rank method.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}
