package httpapi_test

import (
	"encoding/json"
	"testing"

	"docsd/internal/apitest"
)

// TestSiteSchemasMatchAnswers checks the site answers against their documented schemas:
// every required property present, none undescribed.
func TestSiteSchemasMatchAnswers(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := apitest.New(t)
	check := func(schema string, answer map[string]any) {
		t.Helper()
		var s struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(doc.Components["schemas"][schema], &s); err != nil {
			t.Fatalf("schema %s: %v", schema, err)
		}
		for _, name := range s.Required {
			if _, ok := answer[name]; !ok {
				t.Errorf("%s: the answer lacks required property %s", schema, name)
			}
		}
		for name := range answer {
			if _, ok := s.Properties[name]; !ok && name != "hasOverrides" {
				t.Errorf("%s: the answer has property %s that the schema does not describe", schema, name)
			}
		}
	}
	a, b := titledSpace(t, e, "Alpha"), titledSpace(t, e, "Beta")
	path := newSite(t, e, map[string]any{"spaces": []string{a}})
	e.Patch(e.Admin, path, map[string]any{"proxy": "example.com/docs", "hostname": "docs.example.com"}).Expect(200)
	check("Site", e.Post(e.Admin, path+"/publish", nil).Expect(200).Map())
	sec := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": b, "icon": "book"}).Expect(201).Map()
	check("SiteSection", sec)
	for _, it := range e.Get(e.Admin, path+"/site-spaces").Expect(200).Items() {
		check("SiteSpace", it)
	}
	secID, _ := sec["id"].(string)
	e.Patch(e.Admin, path+"/sections/"+secID, map[string]any{"condition": "true", "description": "d"}).Expect(200)
	check("SiteSection", e.Get(e.Admin, path+"/sections").Expect(200).Items()[0])
	g := e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "G", "icon": "x", "sections": []string{secID}}).Expect(201).Map()
	check("SiteSectionGroup", g)
	check("SiteSection", g["children"].([]any)[0].(map[string]any))
	check("SiteStructure", e.Get(e.Admin, path+"/structure").Expect(200).Map())
	check("ShareLink", e.Post(e.Admin, path+"/share-links", map[string]any{"name": "n"}).Expect(201).Map())
	check("SiteAdaptiveSchema", e.Put(e.Admin, path+"/adaptive-schema", `{"jsonSchema":`+adaptiveSchema+`}`).Expect(200).Map())
	check("SiteAdaptiveTemplateCondition", e.Get(e.Admin, path+"/adaptive-schema/template-conditions").Expect(200).Items()[0])
	e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://example.com"}).Expect(200)
	check("SitePublishingAuth", e.Get(e.Admin, path+"/publishing/auth").Expect(200).Map())
	check("SiteCustomizationSettings", e.Get(e.Admin, path+"/customization").Expect(200).Map())
	pub := e.Get(e.Admin, path+"/published").Expect(200).Map()
	check("PublishedContentSite", pub)
	check("Site", pub["site"].(map[string]any))
	ssID := e.Get(e.Admin, path+"/site-spaces").IDs()[0]
	check("SiteCustomizationSettings", e.Get(e.Admin, path+"/site-spaces/"+ssID+"/customization").Expect(200).Map())
}
