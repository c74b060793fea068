package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// Members' and teams' `spaces` counts follow the effective-role rule.
func TestMemberAndTeamSpaceCounts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	member := e.Member("member", auth.Read)
	teammate := e.Member("teammate", auth.Read)
	team := newTeam(t, e, e.Org, "Team", teammate)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"}) // members read it
	private := newSpace(t, e, e.Admin, e.Org, nil)
	newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
	trashed := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
	grant(t, e, e.Admin, "/v1/collections/"+col, "read", nil, []string{team})
	grant(t, e, e.Admin, "/v1/spaces/"+private, "edit", nil, []string{team})
	e.Delete(e.Admin, "/v1/spaces/"+trashed).Expect(204)

	memberSpaces := func(a apitest.Actor) float64 {
		t.Helper()
		return e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/"+a.ID).Expect(200).Num("spaces")
	}
	if n := memberSpaces(e.Admin); n != 3 {
		t.Errorf("admin spaces = %v, want 3", n)
	}
	if n := memberSpaces(member); n != 2 {
		t.Errorf("member spaces = %v, want 2 (unlisted and in-collection)", n)
	}
	if n := memberSpaces(teammate); n != 3 {
		t.Errorf("teammate spaces = %v, want 3 (and the private one through the team)", n)
	}
	counts := map[string]float64{}
	for _, it := range e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/members", 2) {
		counts[it["user"].(map[string]any)["id"].(string)] = it["spaces"].(float64)
	}
	if counts[e.Admin.ID] != 3 || counts[member.ID] != 2 || counts[teammate.ID] != 3 {
		t.Errorf("listed counts = %v", counts)
	}
	if n := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+team).Expect(200).Num("spaces"); n != 2 {
		t.Errorf("team spaces = %v, want 2", n)
	}
	if n := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams").Expect(200).Num("items.0.spaces"); n != 2 {
		t.Errorf("listed team spaces = %v, want 2", n)
	}
	if n := e.Get(e.Admin, "/v1/spaces/"+private+"/permissions/teams").Expect(200).Num("items.0.team.spaces"); n != 2 {
		t.Errorf("team in grants: spaces = %v, want 2", n)
	}
	tm := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+team+"/members").Expect(200)
	found := false
	for _, it := range tm.Items() {
		o := it["organization"].(map[string]any)
		if o["user"].(map[string]any)["id"] == teammate.ID {
			found = true
			if o["spaces"] != 3.0 {
				t.Errorf("team member list: teammate spaces = %v", o["spaces"])
			}
		}
	}
	if !found {
		t.Errorf("teammate not in the team's members: %s", tm.Body)
	}
	mt := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/"+teammate.ID+"/teams").Expect(200)
	if mt.Num("items.0.team.spaces") != 2 {
		t.Errorf("member's teams: spaces = %s", mt.Body)
	}
	// A role change changes what the member reaches, at once.
	if n := e.Patch(e.Admin, "/v1/orgs/"+e.Org+"/members/"+member.ID, map[string]any{"role": "admin"}).Expect(200).Num("spaces"); n != 3 {
		t.Errorf("patched member spaces = %v, want 3", n)
	}
}
