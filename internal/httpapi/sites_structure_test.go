package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
)

func TestSiteSpaces(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, nil)
	guide, api := titledSpace(t, e, "Guide"), titledSpace(t, e, "API")
	r := e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": guide}).Expect(201)
	first := r.Str("id")
	if r.Str("object") != "site-space" || r.Str("space.id") != guide || r.Str("title") != "Guide" ||
		!r.Bool("default") || r.Str("path") != "guide" || r.Has("section") || !r.Bool("space.permissions.admin") {
		t.Fatalf("new site space: %s", r.Body)
	}
	second := e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": api}).Expect(201).Str("id")
	// The same space twice gets a free path.
	third := e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": guide}).Expect(201)
	if third.Str("path") != "guide-2" || third.Bool("default") {
		t.Errorf("second site space of one space: %s", third.Body)
	}
	if n := e.Get(e.Admin, path).Num("siteSpaces"); n != 3 {
		t.Errorf("siteSpaces = %v", n)
	}
	// default filter.
	if got := e.Get(e.Admin, path+"/site-spaces?default=true").IDs(); len(got) != 1 || got[0] != first {
		t.Errorf("default=true: %v", got)
	}
	if got := e.Get(e.Admin, path+"/site-spaces?default=false").IDs(); len(got) != 2 || got[0] != second {
		t.Errorf("default=false: %v", got)
	}
	if all := e.WalkList(e.Admin, path+"/site-spaces", 1); len(all) != 3 {
		t.Errorf("walk: %d", len(all))
	}
	if r := e.Get(e.Admin, path+"/site-spaces?limit=0").Expect(200); r.Num("count") != 3 || len(r.Items()) != 0 || r.Has("next") {
		t.Errorf("limit=0: %s", r.Body)
	}
	e.Get(e.Admin, path+"/site-spaces?limit=1001").Expect(400).ExpectMessage("limit")
	e.Get(e.Admin, path+"/sections?page=forged").Expect(400).ExpectMessage("page")
	// Patch path, condition, spaceId.
	ssPath := path + "/site-spaces/" + second
	r = e.Patch(e.Admin, ssPath, map[string]any{"path": "reference", "condition": "visitor.claims.beta"}).Expect(200)
	if r.Str("path") != "reference" || r.Str("condition") != "visitor.claims.beta" {
		t.Errorf("patched: %s", r.Body)
	}
	r = e.Patch(e.Admin, ssPath, map[string]any{"spaceId": guide}).Expect(200)
	if r.Str("condition") != "visitor.claims.beta" || r.Str("space.id") != guide || r.Str("title") != "Guide" {
		t.Errorf("absent condition must stay: %s", r.Body)
	}
	if r = e.Patch(e.Admin, ssPath, map[string]any{"condition": nil}).Expect(200); r.Has("condition") {
		t.Errorf("null must remove the condition: %s", r.Body)
	}
	cases := []struct {
		body      map[string]any
		status    int
		fragments []string
	}{
		{map[string]any{"path": ""}, 400, []string{"path", "1 to 100"}},
		{map[string]any{"path": strings.Repeat("p", 101)}, 400, []string{"path", "1 to 100"}},
		{map[string]any{"condition": strings.Repeat("c", 1025)}, 400, []string{"condition", "1024"}},
		{map[string]any{"spaceId": "nope"}, 400, []string{"spaceId", "nope"}},
		{map[string]any{"path": "guide"}, 409, []string{"path", "guide"}},
	}
	for _, c := range cases {
		e.Patch(e.Admin, ssPath, c.body).Expect(c.status).ExpectMessage(c.fragments...)
	}
	e.Patch(e.Admin, ssPath, map[string]any{"condition": strings.Repeat("c", 1024)}).Expect(200)
	e.Patch(e.Admin, path+"/site-spaces/nope", map[string]any{"path": "x"}).Expect(404)
	e.Post(e.Admin, path+"/site-spaces", map[string]any{}).Expect(400).ExpectMessage("spaceId")
	e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": guide, "sectionId": "nope"}).Expect(400).ExpectMessage("sectionId")

	// Deleting the default passes the role on; deleting twice is fine.
	e.Delete(e.Admin, path+"/site-spaces/"+first).Expect(204)
	e.Delete(e.Admin, path+"/site-spaces/"+first).Expect(204)
	if got := e.Get(e.Admin, path+"/site-spaces?default=true").IDs(); len(got) != 1 || got[0] != second {
		t.Errorf("default after deleting the default: %v", got)
	}
	// A site space whose space is deleted disappears from the site.
	e.Delete(e.Admin, "/v1/spaces/"+api).Expect(204)
	if n := e.Get(e.Admin, path).Num("siteSpaces"); n != 2 {
		t.Errorf("siteSpaces after deleting a space = %v", n)
	}
}

func TestSiteSectionsAndGroups(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	spaces := map[string]string{}
	for _, title := range []string{"Intro", "Guide", "API", "SDK"} {
		spaces[title] = titledSpace(t, e, title)
	}
	path := newSite(t, e, map[string]any{"spaces": []string{spaces["Intro"]}})
	// The first section takes the root's site spaces.
	r := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": spaces["Guide"], "title": "Guides", "icon": "book"}).Expect(201)
	guides := r.Str("id")
	if r.Str("object") != "site-section" || !r.Bool("default") || r.Str("path") != "guides" || r.Str("icon") != "book" {
		t.Fatalf("first section: %s", r.Body)
	}
	if v, _ := r.Get("siteSpaces"); len(v.([]any)) != 2 || r.Str("siteSpaces.0.space.id") != spaces["Intro"] ||
		r.Str("siteSpaces.1.section") != guides {
		t.Fatalf("first section's site spaces: %s", r.Body)
	}
	// Without a title the space's title is used.
	r = e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": spaces["API"]}).Expect(201)
	apiSec := r.Str("id")
	if r.Str("title") != "API" || r.Bool("default") {
		t.Errorf("second section: %s", r.Body)
	}
	sdkSec := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": spaces["SDK"], "title": "SDKs"}).Expect(201).Str("id")
	// New site spaces without a section go to the default section.
	if r = e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": spaces["SDK"]}).Expect(201); r.Str("section") != guides {
		t.Errorf("site space without sectionId: %s", r.Body)
	}
	e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": spaces["SDK"], "sectionId": apiSec}).Expect(201)
	st := e.Get(e.Admin, path+"/structure").Expect(200)
	if st.Str("type") != "sections" || len(structureIDs(st)) != 3+6 {
		t.Fatalf("structure: %s", st.Body)
	}
	// Patch a section.
	secPath := path + "/sections/" + apiSec
	r = e.Patch(e.Admin, secPath, map[string]any{"title": "Reference", "path": "ref", "condition": "visitor.claims.dev",
		"description": "All endpoints", "icon": "code"}).Expect(200)
	if r.Str("title") != "Reference" || r.Str("path") != "ref" || r.Str("condition") != "visitor.claims.dev" ||
		r.Str("description") != "All endpoints" || r.Str("icon") != "code" {
		t.Errorf("patched section: %s", r.Body)
	}
	r = e.Patch(e.Admin, secPath, map[string]any{"condition": nil, "description": nil, "icon": nil}).Expect(200)
	if r.Has("condition") || r.Has("description") || r.Has("icon") || r.Str("title") != "Reference" {
		t.Errorf("nulls must remove: %s", r.Body)
	}
	second := r.Str("siteSpaces.1.id")
	if r = e.Patch(e.Admin, secPath, map[string]any{"defaultSiteSpace": second}).Expect(200); !r.Bool("siteSpaces.1.default") || r.Bool("siteSpaces.0.default") {
		t.Errorf("section defaultSiteSpace: %s", r.Body)
	}
	for _, c := range []struct {
		body      map[string]any
		status    int
		fragments []string
	}{
		{map[string]any{"title": "x"}, 400, []string{"title", "2 to 128"}},
		{map[string]any{"path": ""}, 400, []string{"path", "1 to 100"}},
		{map[string]any{"description": strings.Repeat("d", 257)}, 400, []string{"description", "256"}},
		{map[string]any{"icon": strings.Repeat("i", 51)}, 400, []string{"icon", "50"}},
		{map[string]any{"condition": strings.Repeat("c", 1025)}, 400, []string{"condition", "1024"}},
		{map[string]any{"defaultSiteSpace": "nope"}, 400, []string{"defaultSiteSpace"}},
		{map[string]any{"path": "guides"}, 409, []string{"path", "guides"}},
	} {
		e.Patch(e.Admin, secPath, c.body).Expect(c.status).ExpectMessage(c.fragments...)
	}
	e.Post(e.Admin, path+"/sections", map[string]any{"title": "No space"}).Expect(400).ExpectMessage("spaceId")
	e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": spaces["API"], "title": "x"}).Expect(400).ExpectMessage("title")
	e.Patch(e.Admin, path+"/sections/nope", map[string]any{"title": "Nope"}).Expect(404)
	// The site's defaultSiteSection and defaultSiteSpace (in the default section).
	e.Patch(e.Admin, path, map[string]any{"defaultSiteSection": apiSec}).Expect(200)
	secs := e.Get(e.Admin, path+"/sections").Expect(200).Items()
	if len(secs) != 3 || secs[0]["default"] != false || secs[1]["default"] != true {
		t.Fatalf("sections after defaultSiteSection: %v", secs)
	}
	firstOfAPI := secs[1]["siteSpaces"].([]any)[0].(map[string]any)["id"].(string)
	e.Patch(e.Admin, path, map[string]any{"defaultSiteSpace": firstOfAPI}).Expect(200)
	if got := e.Get(e.Admin, path+"/site-spaces?default=true").IDs(); !contains(got, firstOfAPI) || len(got) != 3 {
		t.Errorf("defaults after defaultSiteSpace: %v", got)
	}

	// Groups: one at the root holding two sections, one nested in it.
	r = e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "Develop", "icon": "gear",
		"sections": []string{apiSec, sdkSec}}).Expect(201)
	develop := r.Str("id")
	if r.Str("object") != "site-section-group" || r.Str("children.0.id") != apiSec || r.Str("children.1.id") != sdkSec ||
		r.Str("sections.0.id") != apiSec || r.Str("icon") != "gear" {
		t.Fatalf("new group: %s", r.Body)
	}
	r = e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "Advanced", "parent": develop}).Expect(201)
	advanced := r.Str("id")
	if r.Str("sectionGroup") != develop {
		t.Errorf("nested group: %s", r.Body)
	}
	r = e.Post(e.Admin, path+"/section-groups/"+advanced+"/sections", map[string]any{"sectionId": sdkSec}).Expect(201)
	if r.Str("children.0.id") != sdkSec {
		t.Errorf("section added to group: %s", r.Body)
	}
	st = e.Get(e.Admin, path+"/structure").Expect(200)
	if st.Str("structure.0.id") != guides || st.Str("structure.1.id") != develop ||
		st.Str("structure.1.children.0.id") != apiSec || st.Str("structure.1.children.1.id") != advanced ||
		st.Str("structure.1.children.1.children.0.id") != sdkSec || st.Str("structure.1.children.1.children.0.sectionGroup") != advanced {
		t.Fatalf("nested structure: %s", st.Body)
	}
	groups := e.Get(e.Admin, path+"/section-groups").Expect(200).IDs()
	if strings.Join(groups, ",") != develop+","+advanced {
		t.Errorf("groups in order: %v", groups)
	}
	e.Patch(e.Admin, path+"/section-groups/"+advanced, map[string]any{"title": "Deep dive", "icon": nil}).Expect(200)
	e.Patch(e.Admin, path+"/section-groups/"+advanced, map[string]any{"title": ""}).Expect(400).ExpectMessage("title", "1 to 100")
	e.Post(e.Admin, path+"/section-groups", map[string]any{"title": strings.Repeat("t", 101)}).Expect(400).ExpectMessage("title")
	e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "T", "parent": "nope"}).Expect(400).ExpectMessage("parent")
	e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "T", "icon": strings.Repeat("i", 51)}).Expect(400).ExpectMessage("icon", "50")
	e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "T", "sections": []string{"nope"}}).Expect(400).ExpectMessage("sections.0")
	// A refused group moves nothing: the valid section listed before the bad one stays put.
	e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "T", "sections": []string{guides, "nope"}}).Expect(400).ExpectMessage("sections.1")
	if r := e.Get(e.Admin, path+"/structure").Expect(200); r.Str("structure.0.id") != guides || r.Has("structure.0.sectionGroup") {
		t.Errorf("a refused group moved a section: %s", r.Body)
	}
	e.Post(e.Admin, path+"/section-groups/"+advanced+"/sections", map[string]any{"sectionId": "nope"}).Expect(400).ExpectMessage("sectionId")
	e.Post(e.Admin, path+"/section-groups/nope/sections", map[string]any{"sectionId": sdkSec}).Expect(404)
	if n := len(e.Get(e.Admin, path+"/section-groups").Items()); n != 2 {
		t.Errorf("refused creations left %d groups", n)
	}
	// Removing a section from a group puts it right after the group, in the group's parent.
	e.Delete(e.Admin, path+"/section-groups/"+advanced+"/sections/"+sdkSec).Expect(204)
	e.Delete(e.Admin, path+"/section-groups/"+advanced+"/sections/"+sdkSec).Expect(204)
	st = e.Get(e.Admin, path+"/structure").Expect(200)
	if st.Str("structure.1.children.2.id") != sdkSec || st.Str("structure.1.children.2.sectionGroup") != develop {
		t.Errorf("after removing from the group: %s", st.Body)
	}
	// Deleting a group keeps what it held, in its place.
	e.Delete(e.Admin, path+"/section-groups/"+develop).Expect(204)
	e.Delete(e.Admin, path+"/section-groups/"+develop).Expect(204)
	st = e.Get(e.Admin, path+"/structure").Expect(200)
	got := structureIDs(st)
	var top []string
	for _, v := range []string{"0", "1", "2", "3"} {
		id, _ := st.Get("structure." + v + ".id")
		s, _ := id.(string)
		top = append(top, s)
	}
	if strings.Join(top, ",") != guides+","+apiSec+","+advanced+","+sdkSec {
		t.Errorf("after deleting the group: %v (%v)", top, got)
	}
	// Deleting a section deletes its site spaces; the default passes on.
	e.Delete(e.Admin, path+"/sections/"+apiSec).Expect(204)
	e.Delete(e.Admin, path+"/sections/"+apiSec).Expect(204)
	secs = e.Get(e.Admin, path+"/sections").Expect(200).Items()
	if len(secs) != 2 || secs[0]["default"] != true {
		t.Errorf("sections after deleting the default: %v", secs)
	}
	if n := e.Get(e.Admin, path).Num("siteSpaces"); n != 4 {
		t.Errorf("siteSpaces after deleting a section = %v", n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSiteStructureSortAndMoves(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	a, b, c := titledSpace(t, e, "Alpha"), titledSpace(t, e, "Beta"), titledSpace(t, e, "Gamma")
	path := newSite(t, e, map[string]any{"spaces": []string{a, b, c}})
	ids := e.Get(e.Admin, path+"/site-spaces").IDs()
	sort := func(body map[string]any, status int) *apitest.Resp {
		t.Helper()
		return e.Patch(e.Admin, path+"/structure/sort", body).Expect(status)
	}
	item := func(kind, id string) map[string]any { return map[string]any{"type": kind, "id": id} }
	// Move the last site space before the first.
	r := sort(map[string]any{"item": item("site-space", ids[2]), "position": map[string]any{"before": item("site-space", ids[0])}}, 200)
	if r.Str("object") != "site-space" || r.Str("id") != ids[2] {
		t.Errorf("sort answer: %s", r.Body)
	}
	order := e.Get(e.Admin, path+"/site-spaces").IDs()
	if strings.Join(order, ",") != ids[2]+","+ids[0]+","+ids[1] {
		t.Errorf("after sort: %v", order)
	}
	// The deprecated move still works.
	e.Post(e.Admin, path+"/site-spaces/"+ids[2]+"/move", map[string]any{"position": map[string]any{
		"after": map[string]any{"type": "site-space", "siteSpace": ids[1]}}}).Expect(200)
	if order = e.Get(e.Admin, path+"/site-spaces").IDs(); strings.Join(order, ",") != strings.Join(ids, ",") {
		t.Errorf("after move: %v", order)
	}
	// Invalid positions.
	for _, bad := range []struct {
		body      map[string]any
		status    int
		fragments []string
	}{
		{map[string]any{"item": item("site-space", ids[0]), "position": map[string]any{"before": item("site-space", "nope")}}, 400, []string{"position.before", "invalid position"}},
		{map[string]any{"item": item("site-space", ids[0]), "position": map[string]any{"before": item("site-space", ids[0])}}, 400, []string{"itself"}},
		{map[string]any{"item": item("site-space", ids[0]), "position": map[string]any{"before": item("site-space", ids[1]), "after": item("site-space", ids[2])}}, 400, []string{"before or after"}},
		{map[string]any{"item": item("site-space", ids[0]), "position": map[string]any{"before": item("page", ids[1])}}, 400, []string{"position.before.type"}},
		{map[string]any{"item": item("site-space", "nope"), "position": map[string]any{}}, 404, []string{"nope"}},
		{map[string]any{"item": item("shelf", ids[0]), "position": map[string]any{}}, 400, []string{"item.type"}},
		{map[string]any{"position": map[string]any{}}, 400, []string{"item"}},
		{map[string]any{"item": item("site-space", ids[0])}, 400, []string{"position"}},
	} {
		sort(bad.body, bad.status).ExpectMessage(bad.fragments...)
	}
	e.Post(e.Admin, path+"/site-spaces/"+ids[0]+"/move", map[string]any{"position": map[string]any{
		"after": map[string]any{"type": "site-space", "siteSpace": "nope"}}}).Expect(400)
	e.Post(e.Admin, path+"/site-spaces/nope/move", map[string]any{}).Expect(404)

	// Sections and groups share one ordering.
	s1 := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": a, "title": "One"}).Expect(201).Str("id")
	s2 := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": b, "title": "Two"}).Expect(201).Str("id")
	s3 := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": c, "title": "Three"}).Expect(201).Str("id")
	g := e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "Group", "sections": []string{s3}}).Expect(201).Str("id")
	r = sort(map[string]any{"item": item("site-section-group", g), "position": map[string]any{"before": item("site-section", s1)}}, 200)
	if r.Str("object") != "site-section-group" {
		t.Errorf("sort a group: %s", r.Body)
	}
	// A section moved next to a section inside a group joins the group.
	r = sort(map[string]any{"item": item("site-section", s2), "position": map[string]any{"after": item("site-section", s3)}}, 200)
	if r.Str("sectionGroup") != g {
		t.Errorf("section moved into the group: %s", r.Body)
	}
	st := e.Get(e.Admin, path+"/structure").Expect(200)
	if st.Str("structure.0.id") != g || st.Str("structure.0.children.0.id") != s3 || st.Str("structure.0.children.1.id") != s2 ||
		st.Str("structure.1.id") != s1 {
		t.Errorf("structure after sorting: %s", st.Body)
	}
	// The deprecated section and group moves.
	e.Post(e.Admin, path+"/sections/"+s2+"/move", map[string]any{"position": map[string]any{
		"before": map[string]any{"type": "site-section", "siteSection": s3}}}).Expect(200)
	e.Post(e.Admin, path+"/section-groups/"+g+"/move", map[string]any{"position": map[string]any{
		"after": map[string]any{"type": "site-section", "id": s1}}}).Expect(200)
	st = e.Get(e.Admin, path+"/structure").Expect(200)
	if st.Str("structure.0.id") != s1 || st.Str("structure.1.id") != g || st.Str("structure.1.children.0.id") != s2 {
		t.Errorf("structure after moves: %s", st.Body)
	}
	e.Post(e.Admin, path+"/sections/"+s2+"/move", map[string]any{"position": map[string]any{
		"before": map[string]any{"type": "site-section", "siteSection": "nope"}}}).Expect(400).ExpectMessage("invalid position")
	e.Post(e.Admin, path+"/sections/nope/move", map[string]any{}).Expect(404)
	e.Post(e.Admin, path+"/section-groups/nope/move", map[string]any{}).Expect(404)
	// A group cannot go inside itself; site spaces and sections do not mix.
	inner := e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "Inner", "parent": g}).Expect(201).Str("id")
	e.Post(e.Admin, path+"/section-groups/"+inner+"/sections", map[string]any{"sectionId": s1}).Expect(201)
	sort(map[string]any{"item": item("site-section-group", g), "position": map[string]any{"after": item("site-section", s1)}}, 400).ExpectMessage("inside itself")
	sort(map[string]any{"item": item("site-space", ids[0]), "position": map[string]any{"after": item("site-section", s1)}}, 400).ExpectMessage("site space")
	// Moving a site space into another section keeps its path unique there.
	secs := e.Get(e.Admin, path+"/sections").Items()
	var fromOne, fromTwo string
	for _, sec := range secs {
		list := sec["siteSpaces"].([]any)
		switch sec["id"] {
		case s1:
			fromOne = list[0].(map[string]any)["id"].(string)
		case s2:
			fromTwo = list[0].(map[string]any)["id"].(string)
		}
	}
	e.Patch(e.Admin, path+"/site-spaces/"+fromTwo, map[string]any{"path": "same"}).Expect(200)
	e.Patch(e.Admin, path+"/site-spaces/"+fromOne, map[string]any{"path": "same"}).Expect(200)
	r = sort(map[string]any{"item": item("site-space", fromTwo), "position": map[string]any{"after": item("site-space", fromOne)}}, 200)
	if r.Str("section") != s1 || r.Str("path") != "same-2" || r.Bool("default") {
		t.Errorf("site space moved across sections: %s", r.Body)
	}
}

// Newer clients send `draft` when they add or change site structure: false is what docsd's
// always-live structure is, and is accepted; true is refused, naming the field.
func TestSiteStructureDraftField(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, nil)
	guide := titledSpace(t, e, "Guide")
	r := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": guide, "title": "Guides", "draft": false}).Expect(201)
	if r.Bool("draft") {
		t.Errorf("a new section is draft: %s", r.Body)
	}
	section := r.Str("id")
	e.Patch(e.Admin, path+"/sections/"+section, map[string]any{"draft": false, "title": "Guides 2"}).Expect(200)
	e.Patch(e.Admin, path+"/sections/"+section, map[string]any{"draft": true}).Expect(400).ExpectMessage("draft")
	e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": guide, "draft": true}).Expect(400).ExpectMessage("draft")
	ss := e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": guide, "sectionId": section, "draft": false}).Expect(201)
	e.Patch(e.Admin, path+"/site-spaces/"+ss.Str("id"), map[string]any{"draft": false}).Expect(200)
	g := e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "Group", "draft": false}).Expect(201)
	e.Patch(e.Admin, path+"/section-groups/"+g.Str("id"), map[string]any{"draft": true}).Expect(400).ExpectMessage("draft")
}
