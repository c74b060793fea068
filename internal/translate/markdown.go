package translate

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// A page's markdown is not sent to a provider as it is: it is cut into segments, one per line
// of prose (one per cell in a table row), with what must never be translated taken out of
// them. Front matter, fenced code, liquid block tags ({% … %}), blank lines, table rules and
// link reference definitions are kept verbatim; a line's structure (heading marks, list
// markers, quote marks, indentation) stays outside its segment; inside a segment, inline
// code, link destinations, URLs, HTML tags (with their attributes), variables ({{ … }}) and
// glossary terms become placeholders `<x id="N"/>`. Segments are HTML fragments (their text
// escaped), which every provider can keep the placeholders of: Apertium, LibreTranslate and
// DeepL treat them as markup, and the language model is told to. So the markdown structure
// of a translation is the source's by construction.

// placeholderRe matches a placeholder as sent and as providers give it back (Apertium writes
// an empty element as a start and an end tag).
var placeholderRe = regexp.MustCompile(`<x id="(\d+)"\s*(?:/>|>\s*</x>)`)

// protectRe finds what a segment must keep as it is, in order of precedence.
var protectRe = regexp.MustCompile("(`+)[^`]*?(?:`+)" + // inline code
	`|\]\([^)]*\)` + // a link's or image's destination and title
	`|<(?:https?|mailto):[^>]*>` + // autolinks
	`|https?://[^\s)<>\]]+` + // bare URLs
	`|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>` + // HTML tags with their attributes
	`|\{\{.*?\}\}|\{%.*?%\}` + // variables and inline liquid tags
	`|&[A-Za-z]+;|&#[0-9]+;`) // entities

var (
	fenceRe     = regexp.MustCompile("^\\s*(```+|~~~+)")
	liquidRe    = regexp.MustCompile(`^\s*\{%.*%\}\s*$`)
	refDefRe    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*\S`)
	tableRuleRe = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	prefixRe    = regexp.MustCompile(`^(\s*(?:>\s*)*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)?)`)
)

// piece is a part of a text as rebuilt: literal text, or the translation of a segment.
type piece struct {
	literal string
	segment int // index into segments, or -1 for a literal
}

// segment is a piece of prose as sent: escaped text with placeholders, and what each
// placeholder stands for (the original text, or a glossary term's translation).
type segment struct {
	text      string
	protected []string
}

// prepared is a text cut into pieces and segments.
type prepared struct {
	pieces   []piece
	segments []segment
}

// glossaryTerm is a term to write as given: source is found in the text (whole words, any
// case), target replaces it.
type glossaryTerm struct{ source, target string }

// prepareMarkdown cuts a page's markdown (see the package comment above).
func prepareMarkdown(md string, terms []glossaryTerm) *prepared {
	p := &prepared{}
	lines := strings.SplitAfter(md, "\n")
	i := 0
	if strings.HasPrefix(md, "---\n") { // front matter: keys and values stay as they are
		for j := 1; j < len(lines); j++ {
			if strings.TrimRight(lines[j], "\r\n") == "---" {
				p.literal(strings.Join(lines[:j+1], ""))
				i = j + 1
				break
			}
		}
	}
	fence := ""
	for ; i < len(lines); i++ {
		line := lines[i]
		body := strings.TrimRight(line, "\r\n")
		eol := line[len(body):]
		switch {
		case fence != "":
			if m := fenceRe.FindStringSubmatch(body); m != nil && strings.HasPrefix(m[1], fence[:1]) && len(m[1]) >= len(fence) &&
				strings.TrimSpace(body[len(m[0]):]) == "" {
				fence = ""
			}
			p.literal(line)
			continue
		case fenceRe.MatchString(body):
			fence = fenceRe.FindStringSubmatch(body)[1]
			p.literal(line)
			continue
		case strings.TrimSpace(body) == "", liquidRe.MatchString(body), refDefRe.MatchString(body), tableRuleRe.MatchString(body):
			p.literal(line)
			continue
		}
		prefix := prefixRe.FindString(body)
		rest := body[len(prefix):]
		p.literal(prefix)
		if strings.HasPrefix(strings.TrimSpace(rest), "|") {
			p.tableRow(rest, terms)
		} else {
			p.prose(rest, terms)
		}
		p.literal(eol)
	}
	return p
}

// prepareText cuts a one-line text (a title, a description) as one segment.
func prepareText(s string, terms []glossaryTerm) *prepared {
	p := &prepared{}
	p.prose(s, terms)
	return p
}

func (p *prepared) literal(s string) {
	if s == "" {
		return
	}
	if n := len(p.pieces); n > 0 && p.pieces[n-1].segment < 0 {
		p.pieces[n-1].literal += s
		return
	}
	p.pieces = append(p.pieces, piece{literal: s, segment: -1})
}

// tableRow makes each cell of a row a segment, keeping the pipes and the cells' padding.
func (p *prepared) tableRow(row string, terms []glossaryTerm) {
	start := 0
	for i := 0; i <= len(row); i++ {
		if i < len(row) && (row[i] != '|' || (i > 0 && row[i-1] == '\\')) {
			continue
		}
		p.prose(row[start:i], terms)
		if i < len(row) {
			p.literal("|")
		}
		start = i + 1
	}
}

// prose adds s as a segment, its leading and trailing spaces kept outside; text with no
// letter to translate stays literal.
func (p *prepared) prose(s string, terms []glossaryTerm) {
	trimmed := strings.TrimSpace(s)
	lead := s[:strings.Index(s, trimmed)]
	if trimmed == "" {
		p.literal(s)
		return
	}
	trail := s[len(lead)+len(trimmed):]
	seg := protect(trimmed, terms)
	p.literal(lead)
	if hasWords(placeholderRe.ReplaceAllString(seg.text, "")) {
		p.pieces = append(p.pieces, piece{segment: len(p.segments)})
		p.segments = append(p.segments, seg)
	} else {
		p.literal(trimmed)
	}
	p.literal(trail)
}

// protect escapes s and replaces what must not be translated, then glossary terms, with
// placeholders.
func protect(s string, terms []glossaryTerm) segment {
	var seg segment
	var b strings.Builder
	add := func(original string) {
		b.WriteString(`<x id="` + strconv.Itoa(len(seg.protected)) + `"/>`)
		seg.protected = append(seg.protected, original)
	}
	last := 0
	for _, m := range protectRe.FindAllStringIndex(s, -1) {
		glossaryOut(&b, s[last:m[0]], terms, add)
		add(s[m[0]:m[1]])
		last = m[1]
	}
	glossaryOut(&b, s[last:], terms, add)
	seg.text = b.String()
	return seg
}

// glossaryOut writes a stretch of plain text escaped, with glossary terms replaced by
// placeholders (add writes them) that restore the term's translation.
func glossaryOut(b *strings.Builder, text string, terms []glossaryTerm, add func(string)) {
	lower := strings.ToLower(text)
	for i := 0; i < len(text); {
		matched := false
		for _, t := range terms {
			n := len(t.source)
			if n == 0 || i+n > len(text) || lower[i:i+n] != strings.ToLower(t.source) || !wordEdge(text, i) || !wordEdge(text, i+n) {
				continue
			}
			add(t.target)
			i += n
			matched = true
			break
		}
		if !matched {
			b.WriteString(escaper.Replace(text[i : i+1]))
			i++
		}
	}
}

// escaper escapes what would read as markup; quotes stay, so that providers see words such
// as "don't" whole.
var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// wordEdge reports whether position i of s is not inside a word.
func wordEdge(s string, i int) bool {
	if i == 0 || i == len(s) {
		return true
	}
	isWord := func(c byte) bool {
		return c == '_' || c >= 0x80 || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
	}
	return !isWord(s[i-1]) || !isWord(s[i])
}

func hasWords(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// restore rebuilds a segment's translation: the placeholders back to what they stand for,
// the text unescaped. A translation that lost or invented a placeholder is not trusted:
// the source segment is used as it is (ok false).
func restore(seg segment, translated string) (string, bool) {
	seen := make([]bool, len(seg.protected))
	valid := true
	for _, m := range placeholderRe.FindAllStringSubmatch(translated, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil || n >= len(seen) || seen[n] {
			valid = false
			break
		}
		seen[n] = true
	}
	for _, s := range seen {
		valid = valid && s
	}
	if !valid {
		translated = seg.text
	}
	var b strings.Builder
	last := 0
	for _, m := range placeholderRe.FindAllStringSubmatchIndex(translated, -1) {
		b.WriteString(html.UnescapeString(translated[last:m[0]]))
		n, _ := strconv.Atoi(translated[m[2]:m[3]])
		b.WriteString(seg.protected[n])
		last = m[1]
	}
	b.WriteString(html.UnescapeString(translated[last:]))
	return strings.TrimSpace(b.String()), valid
}

// assemble rebuilds the text from translations of its segments (in order).
func (p *prepared) assemble(translations []string) (string, int) {
	var b strings.Builder
	kept := 0
	for _, pc := range p.pieces {
		if pc.segment < 0 {
			b.WriteString(pc.literal)
			continue
		}
		text, ok := restore(p.segments[pc.segment], translations[pc.segment])
		if !ok {
			kept++
		}
		b.WriteString(text)
	}
	return b.String(), kept
}

// texts are the segments as sent.
func (p *prepared) texts() []string {
	out := make([]string, len(p.segments))
	for i, s := range p.segments {
		out[i] = s.text
	}
	return out
}

// countWords counts the words of segments as sent, placeholders aside.
func countWords(segs []string) int {
	n := 0
	for _, s := range segs {
		n += len(strings.FieldsFunc(html.UnescapeString(placeholderRe.ReplaceAllString(s, " ")), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
		}))
	}
	return n
}
