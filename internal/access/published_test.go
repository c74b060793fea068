package access

import (
	"errors"
	"testing"
)

func TestChooseSpaceAddresses(t *testing.T) {
	sites := []PublishedSite{{"s1", SiteShareLink}, {"s2", SiteUnlisted}, {"s3", SitePublic}, {"s4", SitePublic}}
	active := func(ids ...string) func(string) (bool, error) {
		return func(id string) (bool, error) {
			for _, a := range ids {
				if a == id {
					return true, nil
				}
			}
			return false, nil
		}
	}
	for _, tc := range []struct {
		name      string
		keyActive func(string) (bool, error)
		want      SpaceAddresses
	}{
		{"no key: the first site, the first public one", nil, SpaceAddresses{Published: 0, Public: 2}},
		{"a key of no site changes nothing", active(), SpaceAddresses{Published: 0, Public: 2}},
		{"a key of the second site makes it the published one, keyed", active("s2"), SpaceAddresses{Published: 1, Keyed: true, Public: 2}},
		{"the first site whose link is active wins", active("s4", "s3"), SpaceAddresses{Published: 2, Keyed: true, Public: 2}},
	} {
		got, err := ChooseSpaceAddresses(sites, tc.keyActive)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	if got, _ := ChooseSpaceAddresses(sites[:2], nil); got.Public != -1 {
		t.Errorf("no public site: Public %d, want -1", got.Public)
	}
	boom := errors.New("boom")
	if _, err := ChooseSpaceAddresses(sites, func(string) (bool, error) { return false, boom }); !errors.Is(err, boom) {
		t.Errorf("a failing share-link lookup: %v, want it returned", err)
	}
}
