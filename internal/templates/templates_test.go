package templates

import (
	"testing"
)

// Every built-in template imports without warnings. (The API tests check that its links
// resolve once applied.)
func TestTemplatesImportCleanly(t *testing.T) {
	for _, id := range IDs {
		res, err := Get(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings %v", id, res.Warnings)
		}
		if len(res.Pages) < 4 || len(res.Pages) > 10 {
			t.Errorf("%s: %d pages", id, len(res.Pages))
		}
	}
	if _, err := Get("blog"); err == nil {
		t.Error("an unknown template was found")
	}
}
