package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"docsd/internal/apitest"
)

func TestSiteShareLinks(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, map[string]any{"title": "Docs", "visibility": "share-link"})
	r := e.Post(e.Admin, path+"/share-links", map[string]any{"name": "Partners"}).Expect(201)
	id := r.Str("id")
	published := r.Str("urls.published")
	if r.Str("object") != "share-link" || r.Str("name") != "Partners" || !r.Bool("active") || !strings.HasSuffix(r.Str("createdAt"), "Z") {
		t.Fatalf("new share link: %s", r.Body)
	}
	key := published[strings.Index(published, "shareKey=")+len("shareKey="):]
	if len(key) < 32 || strings.Contains(key, id) || !strings.HasPrefix(published, e.URL+"/sites/"+e.Org+"/docs/?") {
		t.Errorf("the key must be long and unrelated to the id: %s", published)
	}
	other := e.Post(e.Admin, path+"/share-links", map[string]any{"name": ""}).Expect(201)
	if k2 := other.Str("urls.published"); strings.HasSuffix(k2, key) {
		t.Error("two links share a key")
	}
	list := e.Get(e.Admin, path+"/share-links").Expect(200)
	if ids := list.IDs(); len(ids) != 2 || ids[0] != id {
		t.Errorf("list: %v", ids)
	}
	if len(e.WalkList(e.Admin, path+"/share-links", 1)) != 2 {
		t.Error("walk")
	}
	// The key admits readers of the site while the link is active (the published profile and
	// structure accept it as shareKey).
	e.Post(e.Admin, path+"/publish", nil).Expect(200)
	pr := e.Get(e.Admin, path+"/published?shareKey="+key).Expect(200)
	if !strings.HasSuffix(pr.Str("site.urls.published"), "/docs/") {
		t.Errorf("published profile: %s", pr.Body)
	}
	// Rename, deactivate, activate.
	r = e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{"name": "Resellers"}).Expect(200)
	if r.Str("name") != "Resellers" || !r.Bool("active") {
		t.Errorf("renamed: %s", r.Body)
	}
	if r = e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{"active": false}).Expect(200); r.Bool("active") || r.Str("name") != "Resellers" {
		t.Errorf("deactivated: %s", r.Body)
	}
	e.Get(e.Admin, path+"/published?shareKey="+key).Expect(400).ExpectMessage("shareKey")
	if _, err := e.App.Sites.ActiveShareLink(t.Context(), strings.TrimPrefix(path, sitesPath(e)+"/"), key); err == nil {
		t.Error("an inactive link still admits readers")
	}
	e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{"active": true}).Expect(200)
	if l, err := e.App.Sites.ActiveShareLink(t.Context(), strings.TrimPrefix(path, sitesPath(e)+"/"), key); err != nil || l.ID != id {
		t.Errorf("reactivated link: %v %v", l, err)
	}
	// Validation.
	e.Post(e.Admin, path+"/share-links", map[string]any{}).Expect(400).ExpectMessage("name", "required")
	e.Post(e.Admin, path+"/share-links", map[string]any{"name": strings.Repeat("n", 51)}).Expect(400).ExpectMessage("name", "50")
	e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{"name": strings.Repeat("n", 51)}).Expect(400).ExpectMessage("name", "50")
	e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{}).Expect(400)
	e.Patch(e.Admin, path+"/share-links/"+id, map[string]any{"active": "yes"}).Expect(400).ExpectMessage("active")
	e.Patch(e.Admin, path+"/share-links/nope", map[string]any{"active": true}).Expect(404)
	// Delete.
	e.Delete(e.Admin, path+"/share-links/"+id).Expect(204)
	e.Delete(e.Admin, path+"/share-links/"+id).Expect(204)
	e.Get(e.Admin, path+"/published?shareKey="+key).Expect(400)
	if n := e.Get(e.Admin, path+"/share-links").Num("count"); n != 1 {
		t.Errorf("count after delete: %v", n)
	}
}

const adaptiveSchema = `{
 "type": "object",
 "properties": {
  "isBetaUser": {"type": "boolean", "description": "Beta user"},
  "plan": {"type": "string", "enum": ["free", "pro"], "description": "Plan"},
  "unsigned": {
   "type": "object",
   "description": "Unsigned claims of the site visitor.",
   "properties": {"language": {"type": "string", "description": "Language"}},
   "additionalProperties": false
  }
 },
 "additionalProperties": false
}`

func TestSiteAdaptiveSchema(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, nil)
	e.Get(e.Admin, path+"/adaptive-schema").Expect(404)
	if items := e.Get(e.Admin, path+"/adaptive-schema/template-conditions").Expect(200).Items(); len(items) != 0 {
		t.Errorf("conditions without a schema: %v", items)
	}
	r := e.Put(e.Admin, path+"/adaptive-schema", `{"jsonSchema":`+adaptiveSchema+`}`).Expect(200)
	if r.Str("object") != "site-adaptive-schema" || r.Str("jsonSchema.properties.plan.enum.1") != "pro" {
		t.Fatalf("put: %s", r.Body)
	}
	got := e.Get(e.Admin, path+"/adaptive-schema").Expect(200)
	if got.Str("updatedAt") != r.Str("updatedAt") || got.Str("jsonSchema.properties.isBetaUser.type") != "boolean" {
		t.Errorf("get: %s", got.Body)
	}
	conds := e.Get(e.Admin, path+"/adaptive-schema/template-conditions").Expect(200).Items()
	var all []string
	for _, c := range conds {
		all = append(all, c["condition"].(string))
		if c["description"] == "" {
			t.Errorf("condition without a description: %v", c)
		}
	}
	want := []string{"visitor.claims.isBetaUser", `visitor.claims.plan == "free"`, `visitor.claims.unsigned.language == "value"`}
	if strings.Join(all, "|") != strings.Join(want, "|") {
		t.Errorf("template conditions: %v", all)
	}
	bad := []struct{ schema, fragment string }{
		{`{"type":"array","properties":{},"additionalProperties":false}`, "jsonSchema.type"},
		{`{"type":"object","properties":{"x":{"type":"boolean"}},"additionalProperties":false}`, "jsonSchema.properties.x"},
		{`{"type":"object","properties":{"x":{"type":"date","description":"d"}},"additionalProperties":false}`, "jsonSchema.properties.x"},
		{`{"type":"object","properties":{},"additionalProperties":true}`, "jsonSchema.additionalProperties"},
		{`{"type":"object","properties":{}}`, "jsonSchema"},
		{`{"type":"object","properties":{"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","properties":{}}},"additionalProperties":false}`, "jsonSchema.properties.unsigned"},
		{`"object"`, "jsonSchema"},
	}
	for _, b := range bad {
		e.Put(e.Admin, path+"/adaptive-schema", `{"jsonSchema":`+b.schema+`}`).Expect(400).ExpectMessage(b.fragment)
	}
	e.Put(e.Admin, path+"/adaptive-schema", `{}`).Expect(400).ExpectMessage("jsonSchema")
	if e.Get(e.Admin, path+"/adaptive-schema").Expect(200).Str("updatedAt") != r.Str("updatedAt") {
		t.Error("a refused schema replaced the stored one")
	}
	member := e.Member("member", "read")
	e.Get(member, path+"/adaptive-schema").Expect(200)
	e.Put(member, path+"/adaptive-schema", `{"jsonSchema":`+adaptiveSchema+`}`).Expect(403)
}

func TestSiteCustomization(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide := titledSpace(t, e, "Guide")
	path := newSite(t, e, map[string]any{"spaces": []string{guide}})
	ssID := e.Get(e.Admin, path+"/site-spaces").IDs()[0]
	def := e.Get(e.Admin, path+"/customization").Expect(200)
	if def.Str("styling.theme") != "clean" || def.Str("themes.default") != "light" {
		t.Fatalf("default customization: %s", def.Body)
	}
	// PUT a whole document with another colour, a logo, a header link and a favicon.
	var doc map[string]any
	def.JSON(&doc)
	doc["title"] = "Acme Docs"
	doc["styling"].(map[string]any)["primaryColor"] = map[string]any{"light": "#ff0000", "dark": "#aa0000"}
	doc["header"] = map[string]any{"preset": "default", "logo": map[string]any{"light": "https://example.com/l.png", "dark": "https://example.com/d.png"},
		"links": []any{map[string]any{"title": "Home", "to": map[string]any{"kind": "url", "url": "https://example.com"}, "links": []any{}}}}
	doc["favicon"] = map[string]any{"icon": map[string]any{"light": "https://example.com/f.png", "dark": "https://example.com/f.png"}}
	r := e.Put(e.Admin, path+"/customization", doc).Expect(200)
	if r.Str("styling.primaryColor.light") != "#ff0000" || r.Str("header.links.0.title") != "Home" {
		t.Fatalf("put: %s", r.Body)
	}
	if got := e.Get(e.Admin, path+"/customization?unmasked=true").Expect(200); got.Str("title") != "Acme Docs" {
		t.Errorf("get after put: %s", got.Body)
	}
	if s := e.Get(e.Admin, path).Expect(200); s.Str("icon.icon.light") != "https://example.com/f.png" {
		t.Errorf("site icon from the favicon: %s", s.Body)
	}
	bad := func(mutate func(m map[string]any), fragment string) {
		t.Helper()
		var m map[string]any
		json.Unmarshal(r.Body, &m)
		mutate(m)
		e.Put(e.Admin, path+"/customization", m).Expect(400).ExpectMessage(fragment)
	}
	bad(func(m map[string]any) {
		m["styling"].(map[string]any)["primaryColor"] = map[string]any{"light": "red", "dark": "#000"}
	}, "styling.primaryColor.light")
	bad(func(m map[string]any) { m["styling"].(map[string]any)["theme"] = "neon" }, "styling.theme")
	bad(func(m map[string]any) { delete(m, "styling") }, "customization")
	bad(func(m map[string]any) { m["title"] = "x" }, "title")
	bad(func(m map[string]any) { m["colour"] = "red" }, "colour")
	bad(func(m map[string]any) {
		m["footer"] = map[string]any{"groups": []any{}, "copyright": strings.Repeat("c", 301)}
	}, "footer.copyright")
	e.Get(e.Admin, path+"/customization?unmasked=perhaps").Expect(400).ExpectMessage("unmasked")

	// Per site space overrides: a merge patch over the site's.
	ssPath := path + "/site-spaces/" + ssID + "/customization"
	got := e.Get(e.Admin, ssPath).Expect(200)
	if got.Bool("hasOverrides") || got.Str("styling.primaryColor.light") != "#ff0000" {
		t.Errorf("site space follows the site: %s", got.Body)
	}
	r = e.Patch(e.Admin, ssPath, map[string]any{"title": "Guide Docs", "styling": map[string]any{"primaryColor": map[string]any{"light": "#00ff00", "dark": "#00aa00"}}}).Expect(200)
	if !r.Bool("hasOverrides") || r.Str("styling.primaryColor.light") != "#00ff00" || r.Str("styling.theme") != "clean" || r.Str("title") != "Guide Docs" {
		t.Errorf("override: %s", r.Body)
	}
	e.Patch(e.Admin, ssPath, map[string]any{"styling": map[string]any{"theme": "neon"}}).Expect(400).ExpectMessage("styling.theme")
	pub := e.Get(e.Admin, path+"/published").Expect(200)
	if pub.Str("customizations.site.styling.primaryColor.light") != "#ff0000" ||
		pub.Str("customizations.siteSpaces."+ssID+".styling.primaryColor.light") != "#00ff00" {
		t.Errorf("published customizations: %s", pub.Body)
	}
	// null resets one override; DELETE drops them all.
	r = e.Patch(e.Admin, ssPath, map[string]any{"title": nil}).Expect(200)
	if r.Str("title") != "Acme Docs" || !r.Bool("hasOverrides") {
		t.Errorf("after resetting the title: %s", r.Body)
	}
	e.Delete(e.Admin, ssPath).Expect(204)
	if got = e.Get(e.Admin, ssPath).Expect(200); got.Bool("hasOverrides") || got.Str("styling.primaryColor.light") != "#ff0000" {
		t.Errorf("after delete: %s", got.Body)
	}
	e.Get(e.Admin, path+"/site-spaces/nope/customization").Expect(404)
	e.Patch(e.Admin, path+"/site-spaces/nope/customization", map[string]any{}).Expect(404)
}

func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, map[string]any{"visibility": "visitor-auth"})
	r := e.Get(e.Admin, path+"/publishing/auth").Expect(200)
	key := r.Str("privateKey")
	if r.Str("object") != "publishing-auth" || r.Str("backend") != "custom" || len(key) < 32 {
		t.Fatalf("publishing auth: %s", r.Body)
	}
	siteID := strings.TrimPrefix(path, sitesPath(e)+"/")
	if st, err := e.App.Sites.Find(t.Context(), siteID); err != nil || st.VisitorAuth.Key != key {
		t.Errorf("the key serving reads differs: %v", err)
	}
	r = e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "https://example.com/login"}).Expect(200)
	if r.Str("fallbackURL") != "https://example.com/login" || r.Str("privateKey") != key {
		t.Errorf("patched: %s", r.Body)
	}
	if r = e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": nil}).Expect(200); r.Has("fallbackURL") {
		t.Errorf("null unsets the fallback: %s", r.Body)
	}
	e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "magic"}).Expect(400).ExpectMessage("backend")
	e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"fallbackURL": "https://example.com"}).Expect(400).ExpectMessage("backend")
	e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "custom", "fallbackURL": "ftp://x"}).Expect(400).ExpectMessage("fallbackURL")
	e.Patch(e.Admin, path+"/publishing/auth", map[string]any{"backend": "custom",
		"fallbackURL": "https://example.com/" + strings.Repeat("p", 2030)}).Expect(400).ExpectMessage("fallbackURL", "2048")
	r = e.Post(e.Admin, path+"/publishing/auth/regenerate", nil).Expect(200)
	if nk := r.Str("privateKey"); nk == key || len(nk) < 32 {
		t.Errorf("regenerated key: %s", nk)
	}
}

func TestSitePublishedProfile(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide, api := titledSpace(t, e, "Guide"), titledSpace(t, e, "API")
	path := newSite(t, e, map[string]any{"title": "Docs", "spaces": []string{guide}})
	pr := e.Get(e.Admin, path+"/published").Expect(200)
	if pr.Str("object") != "published-content-site" || pr.Str("structure.type") != "siteSpaces" ||
		pr.Str("structure.structure.0.space.id") != guide || pr.Has("structure.structure.0.urls.published") {
		t.Fatalf("profile of an unpublished site: %s", pr.Body)
	}
	e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": api, "title": "Reference"}).Expect(201)
	e.Post(e.Admin, path+"/publish", nil).Expect(200)
	key := e.Post(e.Admin, path+"/share-links", map[string]any{"name": "x"}).Expect(201).Str("urls.published")
	key = key[strings.Index(key, "shareKey=")+len("shareKey="):]
	pr = e.Get(e.Admin, path+"/published?shareKey="+key).Expect(200)
	base := e.URL + "/sites/" + e.Org + "/docs/"
	if pr.Str("structure.type") != "sections" || pr.Str("site.urls.published") != base ||
		pr.Str("structure.structure.0.urls.published") != base+"?shareKey="+key ||
		pr.Str("structure.structure.0.siteSpaces.1.urls.published") != base+"api/?shareKey="+key {
		t.Errorf("profile with a share key: %s", pr.Body)
	}
	if v, _ := pr.Get("scripts"); v == nil {
		t.Error("scripts must be a list")
	}
	member := e.Member("reader", "read")
	e.Get(member, path+"/published").Expect(200)
	e.Get(e.NewUser("stranger"), path+"/published").Expect(404)
	e.Get(e.Admin, sitesPath(e)+"/nope/published").Expect(404)
}
