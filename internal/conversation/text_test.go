package conversation

import (
	"testing"
	"time"
)

func TestExtractIssues(t *testing.T) {
	c := Conversation{Subject: "Export", Parts: []Part{
		{Type: "message", Role: "user", Body: "Hello! How do I export a space to PDF? It is urgent."},
		{Type: "message", Role: "team-member", Body: "Why do you need it?"},
		{Type: "message", Role: "user", Body: "The export fails with an error on big spaces."},
		{Type: "message", Role: "user", Body: "Thanks, have a nice day."},
	}}
	got := extractIssues(c)
	if len(got) != 2 || got[0].Title != "How do I export a space to PDF?" || got[1].Title != "The export fails with an error on big spaces." {
		t.Fatalf("issues: %+v", got)
	}
	if none := extractIssues(Conversation{Parts: []Part{{Type: "message", Role: "user", Body: "Thanks for the help."}}}); len(none) != 0 {
		t.Fatalf("a conversation without a question gave %+v", none)
	}
}

func TestPulseCountsUTCWeeksOldestFirst(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) // a Thursday
	dates := []time.Time{now, now.AddDate(0, 0, -3), now.AddDate(0, 0, -4), now.AddDate(0, 0, -7*12), now.AddDate(0, 0, -7*13)}
	p := Pulse(now, dates)
	// Monday the 23rd starts the current week: now and the 23rd count there, the 22nd
	// (a Sunday) in the week before; twelve weeks ago is the oldest counted, thirteen is out.
	if p[12] != 2 || p[11] != 1 || p[0] != 1 || sum(p) != 4 {
		t.Fatalf("pulse %v", p)
	}
}

func sum(p [13]int) int {
	n := 0
	for _, x := range p {
		n += x
	}
	return n
}
