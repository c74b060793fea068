package main

import (
	"context"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// TestSQLiteSynchronousReachesTheConnection reads PRAGMA synchronous back from the
// connection that commits writes, for the default and for each setting.
func TestSQLiteSynchronousReachesTheConnection(t *testing.T) {
	if apitest.PostgresURL() != "" {
		t.Skip("SQLite's synchronous setting: PostgreSQL's durability is its server's synchronous_commit")
	}
	t.Parallel()
	for _, tc := range []struct{ set, want string }{{"", "full"}, {"normal", "normal"}, {"full", "full"}, {"extra", "extra"}, {"off", "off"}} {
		e := apitest.NewWithConfig(t, func(c *config.Config) {
			if tc.set != "" {
				c.SQLiteSynchronous = tc.set
			}
		})
		got, err := e.App.DB.SQLiteSynchronous(context.Background())
		if err != nil || got != tc.want {
			t.Errorf("configured %q: the connection reads back %q (%v), want %q", tc.set, got, err, tc.want)
		}
		// Writes still commit through it.
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"title": "Durable"}).Expect(201)
	}
}
