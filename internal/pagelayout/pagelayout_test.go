package pagelayout

import (
	"encoding/json"
	"testing"
)

func TestResolve(t *testing.T) {
	for stored, want := range map[string]Options{
		"":                                   Default(),
		"{}":                                 Default(),
		"not json":                           Default(),
		`{"width":"wide"}`:                   func() Options { o := Default(); o.Width = "wide"; return o }(),
		`{"width":"huge"}`:                   Default(), // stored before the rule: the default
		`{"preset":"landing"}`:               preset("landing"),
		`{"preset":"landing","title":false}`: func() Options { o := preset("landing"); o.Title = false; return o }(),
	} {
		if got := Resolve(json.RawMessage(stored)); got != want {
			t.Errorf("%q: %+v, want %+v", stored, got, want)
		}
	}
}

func TestEditBackToDefaultsStoresNothing(t *testing.T) {
	wide, err := Edit("layout", nil, json.RawMessage(`{"width":"wide"}`))
	if err != nil || Resolve(wide).Width != "wide" {
		t.Fatalf("%s, %v", wide, err)
	}
	back, err := Edit("layout", wide, json.RawMessage(`{"width":"default"}`))
	if err != nil || back != nil {
		t.Errorf("back to the defaults stores %s (%v), want nothing", back, err)
	}
}
