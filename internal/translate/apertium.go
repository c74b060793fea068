package translate

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strings"
	"time"
)

// Apertium runs the apertium command for the pairs installed (`apertium -l` lists their
// modes, e.g. eng-spa): rule-based, offline, milliseconds per page. It is called with
// `-u -f html`: markup (our placeholders) is kept and unknown words are not marked.
type Apertium struct {
	command string
	modes   map[string]string // "en>es" → "eng-spa"
}

// NewApertium looks for the pairs the command has; nil when the command is missing or has
// none.
func NewApertium(ctx context.Context, command string) *Apertium {
	if command == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, command, "-l").Output()
	if err != nil {
		return nil
	}
	a := &Apertium{command: command, modes: map[string]string{}}
	installed := map[string]bool{}
	for _, f := range strings.Fields(string(out)) {
		installed[f] = true
	}
	for from, f3 := range iso639_3 {
		for to, t3 := range iso639_3 {
			if mode := f3 + "-" + t3; installed[mode] && from != to {
				if _, taken := a.modes[from+">"+to]; !taken || !strings.Contains(from+to, "-") {
					a.modes[from+">"+to] = mode
				}
			}
		}
	}
	if len(a.modes) == 0 {
		return nil
	}
	return a
}

// Name is "apertium".
func (a *Apertium) Name() string { return "apertium" }

// Pairs lists the installed pairs as API languages, e.g. "en>es (eng-spa)".
func (a *Apertium) Pairs() []string {
	m := map[string]string{}
	for k, v := range a.modes {
		m[k+" ("+v+")"] = ""
	}
	return sortedPairs(m)
}

// Covers reports whether a pair's mode is installed.
func (a *Apertium) Covers(from, to string) bool { _, ok := a.modes[from+">"+to]; return ok }

// notransRe matches a placeholder as Apertium keeps it: inside its element for text it must
// not translate, which also keeps it in place (an empty element drifts within a sentence).
var notransRe = regexp.MustCompile(`<apertium-notrans>(\d+)</apertium-notrans>`)

// Translate sends every segment in one run of the command, each in its own block element,
// which Apertium treats as a sentence boundary and keeps on its own line.
func (a *Apertium) Translate(ctx context.Context, req Request) ([]string, error) {
	if len(req.Segments) == 0 {
		return nil, nil
	}
	mode := a.modes[req.From+">"+req.To]
	var in bytes.Buffer
	for _, s := range req.Segments {
		s = placeholderRe.ReplaceAllString(strings.ReplaceAll(s, "\n", " "), `<apertium-notrans>$1</apertium-notrans>`)
		in.WriteString("<p>" + s + "</p>\n")
	}
	cmd := exec.CommandContext(ctx, a.command, "-u", "-f", "html", mode)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errorf(a.Name(), "%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(req.Segments) {
		return nil, errorf(a.Name(), "gave %d lines for %d segments", len(lines), len(req.Segments))
	}
	res := make([]string, len(lines))
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimSuffix(strings.TrimPrefix(l, "<p>"), "</p>")
		res[i] = strings.TrimSpace(notransRe.ReplaceAllString(l, `<x id="$1"/>`))
	}
	return res, nil
}
