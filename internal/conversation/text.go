package conversation

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
)

// maxIssuesPerConversation bounds what one conversation yields.
const maxIssuesPerConversation = 3

var (
	sentenceRe = regexp.MustCompile(`[^.!?\n]+[.!?]*`)
	tagRe      = regexp.MustCompile(`<[^>]+>`)
	// problemRe finds the sentences that state a problem rather than a question.
	problemRe = regexp.MustCompile(`(?i)\b(error|errors|fail|fails|failed|failing|can't|cannot|can not|unable|doesn't|does not|don't|won't|not working|broken|wrong|missing|crash|crashes|stuck|issue|problem|confus|unclear|no way)\b`)
)

// extractIssues finds the questions and problems of a conversation's user messages: each user
// message with one becomes an issue (at most maxIssuesPerConversation), titled by its first
// question or problem sentence, summarized by up to three of them. A conversation whose users
// neither ask nor complain yields none.
func extractIssues(c Conversation) []Issue {
	var out []Issue
	for _, p := range c.Parts {
		if p.Role != "user" || len(out) == maxIssuesPerConversation {
			continue
		}
		text := tagRe.ReplaceAllString(p.Body, " ")
		var found []string
		for _, s := range sentenceRe.FindAllString(text, -1) {
			s = strings.Join(strings.Fields(s), " ")
			if len(s) < 8 {
				continue
			}
			if strings.HasSuffix(s, "?") || problemRe.MatchString(s) {
				found = append(found, s)
			}
		}
		if len(found) == 0 {
			continue
		}
		title := shorten(found[0], 120)
		summary := strings.Join(found[:min(3, len(found))], " ")
		terms := termFrequencies(c.Subject + " " + strings.Join(found, " "))
		if len(terms) == 0 {
			continue
		}
		out = append(out, Issue{Title: title, Summary: shorten(summary, 600), Terms: terms})
	}
	return out
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// stopwords are words too common to say what an issue is about.
var stopwords = wordSet(`a about above after again all also am an and any are as at be because been before being
	below between both but by can could did do does doing down during each few for from further get got had has have
	having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once
	only or other our out over own same she should so some such than that the their them then there these they this those
	through to too under until up very was we were what when where which while who whom why will with would you your yours
	hi hello thanks thank please help hey anyone know want need trying try tried use using used way still already
	cant cannot doesnt dont wont isnt im ive id ill able unable error errors problem issue work works working`)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// termFrequencies are the counts of a text's content words, lightly stemmed.
func termFrequencies(text string) map[string]float64 {
	tf := map[string]float64{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len(w) < 3 || stopwords[w] {
			continue
		}
		tf[stem(w)]++
	}
	return tf
}

// stem drops common English inflections, so "exports", "exported" and "exporting" meet.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 4 {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// idf weighs terms by how rare they are among the organization's issues.
type idf struct {
	docs float64
	df   map[string]float64
}

func newIDF(all []map[string]float64) idf {
	x := idf{docs: float64(len(all)), df: map[string]float64{}}
	for _, tf := range all {
		for t := range tf {
			x.df[t]++
		}
	}
	return x
}

func (x idf) weight(t string) float64 { return math.Log((1+x.docs)/(1+x.df[t])) + 1 }

// cosine is the cosine similarity of two term-frequency vectors under TF-IDF weights.
func (x idf) cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for t, v := range a {
		w := v * x.weight(t)
		na += w * w
		if u, ok := b[t]; ok {
			dot += w * u * x.weight(t)
		}
	}
	for t, u := range b {
		w := u * x.weight(t)
		nb += w * w
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// topTerms are a vector's heaviest terms under TF-IDF.
func (x idf) topTerms(v map[string]float64, n int) []string {
	type tw struct {
		t string
		w float64
	}
	var all []tw
	for t, c := range v {
		all = append(all, tw{t, c * x.weight(t)})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].w != all[j].w {
			return all[i].w > all[j].w
		}
		return all[i].t < all[j].t
	})
	var out []string
	for _, e := range all[:min(n, len(all))] {
		out = append(out, e.t)
	}
	return out
}

// iconFor picks an icon name for a cluster from its terms.
func iconFor(terms []string) string {
	icons := map[string]string{"login": "lock", "password": "lock", "sso": "lock", "auth": "lock", "token": "key",
		"billing": "credit-card", "invoice": "credit-card", "payment": "credit-card", "price": "credit-card",
		"export": "file-export", "pdf": "file-pdf", "import": "file-import", "search": "magnifying-glass",
		"api": "code", "webhook": "code", "install": "download", "domain": "globe", "publish": "globe"}
	for _, t := range terms {
		if icon, ok := icons[t]; ok {
			return icon
		}
	}
	return "circle-question"
}

// addTerms adds (sign 1) or removes (sign -1) a vector from a centroid.
func addTerms(centroid, v map[string]float64, sign float64) {
	for t, c := range v {
		centroid[t] += sign * c
		if centroid[t] <= 1e-9 {
			delete(centroid, t)
		}
	}
}

// Pulse counts dates by UTC week (weeks start on Monday) over the 13 weeks that end with
// now's, the oldest first; dates outside them are not counted.
func Pulse(now time.Time, dates []time.Time) [13]int {
	var out [13]int
	week := func(t time.Time) time.Time {
		t = t.UTC()
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	}
	current := week(now)
	for _, d := range dates {
		ago := int(current.Sub(week(d)).Hours() / (24 * 7))
		if ago >= 0 && ago < 13 {
			out[12-ago]++
		}
	}
	return out
}
