package apitest

import (
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"docsd/api"
	"docsd/internal/apispec"
	"docsd/internal/ids"
)

// Every answer a test receives through Env is judged by the public GitBook spec, in the
// reference version and the newest (apispec.PublicVersions), wherever the operation exists
// there, and by our own api/openapi.yaml for our extensions (operations the public spec does
// not have). A violation fails the test that made the request (Errorf: the test goes on).
//
// Requests a test sends malformed on purpose are judged too: their answers must still be
// ones the spec allows. The public spec declares error statuses sparsely, so an undeclared
// 400, 401, 403, 404, 409, 413, 429 or 5xx is allowed on any operation (apispec.GenericErrors)
// as long as its body is {"error":{"code":<status>,"message":...}}; any other undeclared
// status, success statuses included, is a violation. A request that matches no operation of
// any document must be answered 404 or 405 with that error body.
//
// Environment:
//   - DOCSD_TEST_PUBLIC_SPEC=required: a public spec that cannot be loaded (nor fetched
//     with npm) fails every test. Unset, the suite says once that it judges by our own
//     document only, and goes on.
//   - DOCSD_TEST_SPEC_REPORT=DIR: each test process writes what it judged to a file in DIR,
//     for `go run ./cmd/docsd-speccheck DIR` to add up.

// judges are the documents answers are judged by, loaded once per test process.
type judges struct {
	public    []*apispec.Doc
	publicErr error
	ours      *apispec.Doc
	oursErr   error
	conflicts []specConflict // x-docsd-spec-conflicts of our document
	tally     *apispec.Tally
	report    string // the tally's file, or ""
}

var loadJudges = sync.OnceValue(func() *judges {
	j := &judges{tally: apispec.NewTally()}
	for _, v := range apispec.PublicVersions {
		d, err := apispec.Public(v)
		if err != nil {
			j.publicErr = err
			j.public = nil
			break
		}
		j.public = append(j.public, d)
	}
	raw, err := api.JSON()
	if err == nil {
		j.ours, err = apispec.Parse("docsd", raw)
	}
	if err == nil {
		j.conflicts, err = specConflicts(raw)
	}
	if err == nil && j.publicErr == nil {
		err = j.checkConflicts()
	}
	j.oursErr = err
	if dir := os.Getenv("DOCSD_TEST_SPEC_REPORT"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err == nil {
			j.report = filepath.Join(dir, fmt.Sprintf("%d-%s.tally", os.Getpid(), ids.Random(6)))
		}
	}
	if j.publicErr != nil && os.Getenv("DOCSD_TEST_PUBLIC_SPEC") != "required" {
		fmt.Fprintf(os.Stderr, "apitest: answers are checked against api/openapi.yaml only, not the public GitBook spec: %v\n", j.publicErr)
	}
	return j
})

// startJudging loads the judges for a new Env, failing the test if they cannot judge as
// asked, and arranges that the process's tally is written when the test ends.
func startJudging(t testing.TB) *judges {
	t.Helper()
	j := loadJudges()
	if j.oursErr != nil {
		t.Fatalf("api/openapi.yaml cannot judge answers: %v", j.oursErr)
	}
	if j.publicErr != nil && os.Getenv("DOCSD_TEST_PUBLIC_SPEC") == "required" {
		t.Fatalf("DOCSD_TEST_PUBLIC_SPEC=required, and the public spec cannot be loaded: %v", j.publicErr)
	}
	if j.report != "" {
		t.Cleanup(func() {
			if err := j.tally.WriteFile(j.report); err != nil {
				t.Errorf("write the spec report: %v", err)
			}
		})
	}
	return j
}

// judge fails t for each rule the answer breaks.
func (j *judges) judge(t testing.TB, a apispec.Answer) {
	t.Helper()
	var ops []*apispec.Operation
	for _, d := range j.public {
		if op := d.Find(a.Method, a.Path); op != nil {
			ops = append(ops, op)
		}
	}
	// Our extension wins where its template is more literal than the public one that
	// matched (POST /v1/spaces/{id}/content/import beside a public /content/{x}).
	if own := j.ours.Find(a.Method, a.Path); own != nil && (len(ops) == 0 || own.Literals() > ops[0].Literals()) {
		ops = []*apispec.Operation{own}
	}
	var violations []apispec.Violation
	if len(ops) == 0 {
		violations = unrouted(a)
	}
	for _, op := range ops {
		if !j.excused(op, a.Status) {
			violations = append(violations, op.Judge(a)...)
		}
	}
	n := 0
	for _, v := range violations {
		if n++; n <= maxReported {
			t.Errorf("the spec refuses this answer: %s", v)
		}
	}
	if n > maxReported {
		t.Errorf("the spec refuses this answer on %d more counts", n-maxReported)
	}
	j.tally.Answer(n > 0, ops...)
}

// maxReported bounds the violations reported for one answer (a list of a hundred items
// can break one rule a hundred times).
const maxReported = 10

// unrouted judges the answer to a request no document describes: a 404 or 405 error.
func unrouted(a apispec.Answer) []apispec.Violation {
	mt, _, _ := mime.ParseMediaType(a.ContentType)
	if (a.Status == 404 || a.Status == 405) && mt == "application/json" && strings.Contains(string(a.Body), `"error"`) {
		return nil
	}
	return []apispec.Violation{{Message: fmt.Sprintf("%s %s answered %d, and no operation of the public spec or api/openapi.yaml describes it (want 404 or 405 with an error body)",
		a.Method, a.Path, a.Status)}}
}
