package main

import (
	"strings"
	"testing"
)

func TestSelectEndpoints(t *testing.T) {
	t.Parallel()
	all, err := selectEndpoints("all")
	if err != nil || len(all) != len(endpoints) {
		t.Fatalf("all: %d endpoints, %v", len(all), err)
	}
	got, err := selectEndpoints("members, org")
	if err != nil || len(got) != 2 || got[0].Name != "members" || got[1].Name != "org" {
		t.Fatalf("members, org: %v, %v", got, err)
	}
	if got[1].Path(fixture{OrgID: "a/b"}) != "/v1/orgs/a%2Fb" {
		t.Errorf("org path = %q", got[1].Path(fixture{OrgID: "a/b"}))
	}
	if _, err := selectEndpoints("org,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown endpoint: %v", err)
	}
}
