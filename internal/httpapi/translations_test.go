package httpapi_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
	"docsd/internal/contenttree"
	"docsd/internal/store"
	"docsd/internal/translate"
)

// noProviders turns every translation provider off, for tests that must not depend on what
// the machine has installed.
func noProviders(c *config.Config) { c.Language.ApertiumCommand = "" }

func emptyDoc() map[string]any {
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}
}

func docWith(text string) map[string]any {
	return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
			map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": text, "marks": []any{}}}}}}}}
}

func TestTranslationsCRUD(t *testing.T) {
	e := apitest.NewWithConfig(t, noProviders)
	base := "/v1/orgs/" + e.Org + "/translations"
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})

	e.Post(e.Admin, base, map[string]any{"language": "es"}).ExpectError(400).ExpectMessage("source.space")
	e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "xx"}).
		ExpectError(400).ExpectMessage("language")
	e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": "nope", "language": "en"}, "language": "es"}).
		ExpectError(400).ExpectMessage("source.space")

	r := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "es",
		"instructions": docWith("Use the formal register.")}).Expect(201)
	id := r.Str("id")
	if r.Str("status") != "completed" || r.Str("source.space") != src || r.Has("result") || !r.Bool("permissions.edit") {
		t.Fatalf("created translation: %v", r.Map())
	}
	e.Get(e.Admin, base+"/"+id).Expect(200)
	if ids := e.Get(e.Admin, base).Expect(200).IDs(); len(ids) != 1 || ids[0] != id {
		t.Fatalf("list: %v", ids)
	}
	reader := e.Member("reader", auth.Read)
	if e.Get(reader, base+"/"+id).Expect(200).Bool("permissions.edit") {
		t.Fatal("a reader may not edit")
	}
	e.Put(reader, base+"/"+id, map[string]any{"instructions": emptyDoc()}).ExpectError(403)
	e.Post(reader, base+"/"+id+"/run", nil).ExpectError(403)
	outsider := e.NewUser("outsider")
	e.Get(outsider, base+"/"+id).ExpectError(404)

	e.Put(e.Admin, base+"/"+id, map[string]any{}).ExpectError(400).ExpectMessage("instructions")
	u := e.Put(e.Admin, base+"/"+id, map[string]any{"instructions": docWith("Keep it short."), "autoRun": false}).Expect(200)
	if u.Bool("autoRun") || !strings.Contains(fmt.Sprint(u.Map()["instructions"]), "Keep it short.") {
		t.Fatalf("updated: %v", u.Map())
	}

	// No provider covers en → es here: the run is refused, naming the pair and what to add.
	e.Post(e.Admin, base+"/"+id+"/run", nil).ExpectError(400).ExpectMessage("en → es", "DOCSD_LLM_BASE_URL", "apertium")
	e.Post(e.Admin, base+"/missing/run", nil).ExpectError(404)

	e.Delete(e.Admin, base+"/"+id).Expect(205)
	e.Delete(e.Admin, base+"/"+id).Expect(204)
	e.Get(e.Admin, base+"/"+id).ExpectError(404)
}

func TestGlossaryBatches(t *testing.T) {
	e := apitest.NewWithConfig(t, noProviders)
	base := "/v1/orgs/" + e.Org + "/translations-glossary"
	e.Put(e.Admin, base, map[string]any{"operations": []any{
		map[string]any{"type": "insert", "translations": map[string]any{"en": "space", "es": "espacio"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "docsd"}},
	}}).Expect(204)
	items := e.Get(e.Admin, base).Expect(200).Items()
	if len(items) != 2 {
		t.Fatalf("entries: %v", items)
	}
	first := items[0]["id"].(string)
	second := items[1]["id"].(string)
	e.Get(e.Admin, base+"/"+first).Expect(200)

	// A batch is all or nothing: the bad update stops the delete before it.
	e.Put(e.Admin, base, map[string]any{"operations": []any{
		map[string]any{"type": "delete", "id": second},
		map[string]any{"type": "update", "id": "missing", "translations": map[string]any{"en": "x"}},
	}}).ExpectError(400).ExpectMessage("operations[1].id")
	e.Get(e.Admin, base+"/"+second).Expect(200)
	e.Put(e.Admin, base, map[string]any{"operations": []any{map[string]any{"type": "insert", "translations": map[string]any{"xx": "y"}}}}).
		ExpectError(400).ExpectMessage("xx")
	e.Put(e.Admin, base, map[string]any{"operations": []any{map[string]any{"type": "insert", "translations": map[string]any{"en": "a\nb"}}}}).
		ExpectError(400)
	e.Put(e.Admin, base, map[string]any{"operations": []any{map[string]any{"type": "upsert", "id": first}}}).ExpectError(400)

	e.Put(e.Admin, base, map[string]any{"operations": []any{
		map[string]any{"type": "update", "id": first, "translations": map[string]any{"en": "space", "es": "espacio de trabajo"}},
		map[string]any{"type": "delete", "id": second},
	}}).Expect(204)
	if got := e.Get(e.Admin, base+"/"+first).Expect(200).Str("translations.es"); got != "espacio de trabajo" {
		t.Fatalf("updated term: %q", got)
	}
	e.Get(e.Admin, base+"/"+second).ExpectError(404)
	reader := e.Member("reader", auth.Read)
	e.Get(reader, base).Expect(200)
	e.Put(reader, base, map[string]any{"operations": []any{}}).ExpectError(403)
}

// sourceTree is a small English space with what a translation must keep as it is.
func sourceTree() *contenttree.Tree {
	return newTreeBuilder().
		doc("p1", "", "Getting started", "getting-started", "# Getting started\n\nInstall the tool with the command below. Read [the guide](https://example.com/guide) for the details of the space.\n\n```bash\necho \"do not translate this\"\n```\n\n- The first step is simple\n- Use `docsd serve` to start the server\n").
		doc("p2", "", "Configuration", "configuration", "---\ndescription: keys stay\n---\n\n# Configuration\n\n| Name | Meaning |\n| --- | --- |\n| port | The port of the server |\n\nThe house is red and the space is large.\n").
		doc("p3", "p1", "Troubleshooting", "troubleshooting", "When the server does not start, read the logs.\n").tree
}

const codeBlock = "```bash\necho \"do not translate this\"\n```\n"

// resultTree reads the translation's result content.
func resultTree(t *testing.T, e *apitest.Env, tr *apitest.Resp) *contenttree.Tree {
	t.Helper()
	tree, err := e.App.Content.Tree(context.Background(), tr.Str("result.revision"))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// waitForRuns runs due work until the translation has made runs runs and is completed: the
// server's own outbox runner may take the event (and queue the run) between the steps of one
// RunDue, so a few rounds may be needed. Bounded to 30 seconds.
func waitForRuns(t *testing.T, e *apitest.Env, path string, runs float64) *apitest.Resp {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.RunDue()
		tr := e.Get(e.Admin, path).Expect(200)
		if (tr.Num("stats.runs") >= runs && tr.Str("status") == "completed") || time.Now().After(deadline) {
			return tr
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func requireApertium(t *testing.T) {
	t.Helper()
	out, err := exec.Command("apertium", "-l").Output()
	if err != nil || !strings.Contains(string(out), "eng-spa") {
		if os.Getenv("DOCSD_TEST_APERTIUM") == "required" {
			t.Fatalf("DOCSD_TEST_APERTIUM=required but apertium with eng-spa is not installed (apt-get install apertium apertium-eng-spa)")
		}
		t.Skip("apertium with eng-spa is not installed (apt-get install apertium apertium-eng-spa, as .ci/run does)")
	}
}

func TestTranslationRunWithApertium(t *testing.T) {
	requireApertium(t)
	e := apitest.New(t)
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	replaceContent(t, e, e.Admin, src, sourceTree())
	// The source's own head move is processed before there is a translation, so that the
	// first run is the only one until the edit below (a change seen later re-runs it).
	e.RunDue()
	e.Put(e.Admin, "/v1/orgs/"+e.Org+"/translations-glossary", map[string]any{"operations": []any{
		map[string]any{"type": "insert", "translations": map[string]any{"en": "space", "es": "espacio documental"}},
		map[string]any{"type": "insert", "translations": map[string]any{"en": "server"}}, // kept as it is
	}}).Expect(204)
	base := "/v1/orgs/" + e.Org + "/translations"
	id := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "es"}).Expect(201).Str("id")
	e.Post(e.Admin, base+"/"+id+"/run", nil).Expect(204)
	if st := e.Get(e.Admin, base+"/"+id).Expect(200).Str("status"); st != "pending" && st != "running" {
		t.Fatalf("status after run: %s", st)
	}
	tr := waitForRuns(t, e, base+"/"+id, 1)
	if tr.Str("status") != "completed" || tr.Str("provider") != "apertium" || tr.Num("stats.runs") != 1 ||
		tr.Num("stats.latestPages") != 3 || tr.Num("stats.totalPages") != 3 || tr.Num("stats.latestWords") < 40 {
		t.Fatalf("after the first run: %v", tr.Map())
	}
	out := resultTree(t, e, tr)
	if len(out.Pages) != 3 {
		t.Fatalf("result has %d pages", len(out.Pages))
	}
	p1, p2, p3 := out.Pages["p1"], out.Pages["p2"], out.Pages["p3"]
	t.Logf("p1: %q\np2: %q\np3: %q", p1.Markdown, p2.Markdown, p3.Markdown)
	if p1.Title == "Getting started" || p1.Slug != "getting-started" || p3.ParentID != "p1" {
		t.Fatalf("p1 title %q slug %q; p3 parent %q", p1.Title, p1.Slug, p3.ParentID)
	}
	for _, want := range []string{codeBlock, "](https://example.com/guide)", "`docsd serve`", "espacio documental", "\n- ", "# "} {
		if !strings.Contains(p1.Markdown, want) {
			t.Errorf("p1 lacks %q:\n%s", want, p1.Markdown)
		}
	}
	for _, want := range []string{"---\ndescription: keys stay\n---\n", "| --- | --- |", "server", "roja", "el espacio documental es grande"} {
		if !strings.Contains(p2.Markdown, want) {
			t.Errorf("p2 lacks %q:\n%s", want, p2.Markdown)
		}
	}
	if strings.Count(p2.Markdown, "\n") != strings.Count(sourceTree().Pages["p2"].Markdown, "\n") {
		t.Errorf("p2's lines changed:\n%s", p2.Markdown)
	}

	// An edit of one page: the outbox runs the translation again, which sends that page only.
	edited := sourceTree()
	pg := edited.Pages["p3"]
	pg.Markdown = "When the server does not start, read the logs and the house.\n"
	edited.Pages["p3"] = pg
	replaceContent(t, e, e.Admin, src, edited)
	tr = waitForRuns(t, e, base+"/"+id, 2)
	if tr.Num("stats.runs") != 2 || tr.Num("stats.latestPages") != 1 || tr.Num("stats.totalPages") != 3 ||
		tr.Num("stats.latestWords") > 15 || tr.Str("status") != "completed" {
		t.Fatalf("after an edit of one page: %v", tr.Map())
	}
	if out := resultTree(t, e, tr); !strings.Contains(out.Pages["p3"].Markdown, "casa") || out.Pages["p1"].Markdown != p1.Markdown {
		t.Fatalf("second run: p3 %q", out.Pages["p3"].Markdown)
	}
	resultSpace := tr.Str("result.space")
	e.Get(e.Admin, "/v1/spaces/"+resultSpace).Expect(200)
}

// The translations consumer, having queued a re-run for a source's new head and died before
// its cursor moved, sees the change again: the second pass leaves the translation's result as
// the first made it (a run it queues again, the first having completed, finds nothing left to
// translate and moves nothing).
func TestOutboxTranslationsConsumerAfterACrashBeforeTheCursorMoved(t *testing.T) {
	requireApertium(t)
	e := apitest.New(t)
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	replaceContent(t, e, e.Admin, src, sourceTree())
	e.RunDue()
	base := "/v1/orgs/" + e.Org + "/translations"
	id := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "es"}).Expect(201).Str("id")
	e.Post(e.Admin, base+"/"+id+"/run", nil).Expect(204)
	waitForRuns(t, e, base+"/"+id, 1)

	e.App.Outbox.Stop()
	edited := sourceTree()
	pg := edited.Pages["p3"]
	pg.Markdown = "When the server does not start, read the logs and the house.\n"
	edited.Pages["p3"] = pg
	replaceContent(t, e, e.Admin, src, edited)
	ctx := t.Context()
	claim, ok, err := store.Outbox{DB: e.App.DB}.ClaimEvents(ctx, translate.Consumer, "crashed", e.Clock.Now(), time.Minute, 100)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := e.App.Translations.HandleEvents(ctx, claim.Events()); err != nil {
		t.Fatal(err)
	}
	// The run the crashed pass queued completes.
	for range 10 {
		if _, err := e.App.Jobs.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		if tr := e.Get(e.Admin, base+"/"+id).Expect(200); tr.Num("stats.runs") >= 2 && tr.Str("status") == "completed" {
			break
		}
	}
	first := e.Get(e.Admin, base+"/"+id).Expect(200)
	if first.Num("stats.runs") != 2 || first.Str("status") != "completed" || first.Num("stats.latestPages") != 1 {
		t.Fatalf("after the crashed pass's run: %v", first.Map())
	}
	head := e.Get(e.Admin, "/v1/spaces/"+first.Str("result.space")).Expect(200).Str("revision")
	if apitest.Engine() == "postgres" {
		claim.Release()
	} else {
		e.Clock.Advance(2 * time.Minute)
	}
	e.RunDue()
	again := e.Get(e.Admin, base+"/"+id).Expect(200)
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", translate.Consumer); got != 0 {
		t.Errorf("%v events pending after the second pass", got)
	}
	if again.Str("status") != "completed" || (again.Num("stats.runs") > first.Num("stats.runs") && again.Num("stats.latestPages") != 0) {
		t.Errorf("after the second pass: %v", again.Map())
	}
	if now := e.Get(e.Admin, "/v1/spaces/"+again.Str("result.space")).Expect(200).Str("revision"); now != head {
		t.Errorf("the result space moved from %s to %s on the second pass", head, now)
	}
	if out := resultTree(t, e, again); !strings.Contains(out.Pages["p3"].Markdown, "casa") {
		t.Errorf("p3 after the second pass: %q", out.Pages["p3"].Markdown)
	}
}
