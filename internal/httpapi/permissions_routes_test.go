package httpapi_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// TestPermissionMatrixRoutes calls every operation of api/openapi.yaml as every kind of
// caller (no token, a bad token, a share-link reader, a user of no organization here, and
// members holding each role, the organization admin last), with valid requests on the
// fuzzer's fixtures, and holds each answer to the outcome that routeNeeds writes once per
// operation: the least a caller needs. Callers below it are refused as the access rule says
// (401 without a valid token, 404 to whoever may not know the object exists, 403 to members
// below the role); callers at or above it are let through (any answer but 401 and 403, and
// 404 only where the object is gone or the admin gets it too).
//
// DOCSD_MATRIX_DUMP=1 logs the statuses seen, one line per operation, for writing the table.
func TestPermissionMatrixRoutes(t *testing.T) {
	e := apitest.New(t)
	f := &fuzzer{t: t, e: e, rng: rand.New(rand.NewPCG(15, 15)), doc: loadOpenAPI(t),
		client: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	f.ops = f.operations()
	f.setUp()
	shareKey := matrixShareKey(t, e, crossOrgValue(f.real, "siteId"))
	// New spaces are private; the fixture space takes its readers from the organization's
	// roles instead, so that each member holds their organization role on it.
	e.Patch(e.Admin, "/v1/spaces/"+crossOrgValue(f.real, "spaceId"), map[string]any{"visibility": "unlisted"}).Expect(200)

	callers := []routeCaller{
		{name: "no token", actor: apitest.Anonymous},
		{name: "bad token", actor: apitest.Actor{Token: auth.TokenPrefix + "notatokenanyoneholds000"}},
		{name: "share-link reader", actor: apitest.Anonymous, shareKey: shareKey},
		{name: "outsider", actor: e.NewUser("matrix outsider")},
	}
	for _, r := range []auth.Role{auth.Read, auth.Comment, auth.Edit, auth.Review, auth.Create} {
		callers = append(callers, routeCaller{name: string(r), role: r, actor: e.Member("matrix "+string(r), r)})
	}
	// Installation tokens of integrations installed on every space of the organization: one
	// whose scopes make it an editor of the spaces, one whose scopes give it no content.
	callers = append(callers,
		routeCaller{name: "installation with space:content:write", installation: true, install: auth.Edit,
			actor: matrixInstallationToken(t, e, "matrix-writer", []string{"space:content:write", "space:metadata:read"})},
		routeCaller{name: "installation without content scopes", installation: true, install: auth.Guest,
			actor: matrixInstallationToken(t, e, "matrix-scriptonly", []string{"site:script:inject"})})
	callers = append(callers, routeCaller{name: "admin", role: auth.Admin, actor: e.Admin})

	// Operations that remove or move the fixtures come late, and those that make the caller
	// a member (joining, accepting an invite) last: after them the outsider is one.
	ops := slices.Clone(f.ops)
	rank := func(op *fuzzOp) int {
		switch {
		case strings.HasSuffix(op.path, "/join") || strings.HasSuffix(op.path, "/invites/{inviteId}"):
			return 2
		case op.destructive():
			return 1
		}
		return 0
	}
	// Among the destructive ones, what lies deeper goes first: deleting an integration before
	// its installations would leave nothing for the calls on them to refuse.
	depth := func(op *fuzzOp) int { return strings.Count(op.path, "/") }
	sort.SliceStable(ops, func(i, j int) bool {
		if rank(ops[i]) != rank(ops[j]) {
			return rank(ops[i]) < rank(ops[j])
		}
		return rank(ops[i]) == 1 && depth(ops[i]) > depth(ops[j])
	})
	dump := os.Getenv("DOCSD_MATRIX_DUMP") != ""
	var failures, lines []string
	for _, op := range ops {
		need, ok := routeNeeds[op.key()]
		if !ok {
			failures = append(failures, fmt.Sprintf("%s: not in routeNeeds: write the least it needs", op.key()))
		}
		statuses := make([]int, len(callers))
		// One request, sent by each caller in turn: only the caller differs. Its random parts
		// come from a generator seeded by the operation alone, so that adding an operation
		// to the document does not change the requests sent for the others.
		f.rng = rand.New(rand.NewPCG(15, opSeed(op.key())))
		base := crossOrgRequest(f, op, apitest.Anonymous, nil)
		// A DELETE of what is not there answers alike to everyone who may see where it would
		// be: the statuses cannot tell a refusal from an absence, so the fixture's absence is
		// established first, by the admin's GET of the same address.
		absent := false
		if op.method == http.MethodDelete {
			probe := base
			probe.method, probe.body, probe.contentType, probe.actor = http.MethodGet, nil, "", e.Admin
			if status, _, err := f.send(probe); err == nil && status == http.StatusNotFound {
				absent = true
			}
		}
		for i, c := range callers {
			req := base
			req.actor = c.actor
			if c.shareKey != "" {
				sep := "?"
				if strings.Contains(req.target, "?") {
					sep = "&"
				}
				req.target += sep + "shareKey=" + c.shareKey
			}
			status, _, err := f.send(req)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%s as %s: %v", op.key(), c.name, err))
			}
			statuses[i] = status
		}
		// A call may have changed who sees the fixture space (a PATCH with a random
		// visibility or defaultLevel): it takes its readers from the organization's roles
		// again, so that the next operation is judged on the same ground.
		e.Patch(e.Admin, "/v1/spaces/"+crossOrgValue(f.real, "spaceId"), map[string]any{"visibility": "unlisted", "defaultLevel": "inherit"})
		if dump {
			lines = append(lines, fmt.Sprintf("%-70q %v", op.key(), statuses))
		}
		if !ok {
			continue
		}
		for i, c := range callers {
			if absent && c.role != "" && (statuses[i] == 204 || statuses[i] == 403 || statuses[i] == 404) {
				continue
			}
			if why := need.judge(op, callers, statuses, i); why != "" {
				failures = append(failures, fmt.Sprintf("%s as %s: %d, %s (all: %v)", op.key(), c.name, statuses[i], why, statuses))
			}
		}
	}
	for _, k := range sortedKeys(routeNeeds) {
		if !slices.ContainsFunc(f.ops, func(op *fuzzOp) bool { return op.key() == k }) {
			failures = append(failures, fmt.Sprintf("routeNeeds names %q, which api/openapi.yaml does not describe", k))
		}
	}
	if dump {
		t.Logf("statuses by caller %v:\n%s", routeCallerNames(callers), strings.Join(lines, "\n"))
	}
	t.Logf("permission matrix (%s): %d operations × %d callers", apitest.Engine(), len(ops), len(callers))
	if len(failures) > 0 {
		t.Errorf("%d wrong answers:\n\t%s", len(failures), strings.Join(failures, "\n\t"))
	}
}

type routeCaller struct {
	name     string
	actor    apitest.Actor
	role     auth.Role // the organization role of a member ("" for the others)
	shareKey string
	// installation marks an integration installation's token, and install is the role its
	// scopes give it on the spaces it covers (every space of the organization here).
	installation bool
	install      auth.Role
}

// matrixInstallationToken publishes an integration with the given scopes, installs it on
// every space of the organization, and returns a token of the installation.
func matrixInstallationToken(t *testing.T, e *apitest.Env, name string, scopes []string) apitest.Actor {
	t.Helper()
	e.Post(e.Admin, "/v1/integrations/"+name, integrationBody(e.Org, map[string]any{"scopes": scopes})).Expect(200)
	in := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Patch(e.Admin, "/v1/integrations/"+name+"/installations/"+in, map[string]any{"space_selection": "all"}).Expect(200)
	tok := e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/tokens", nil).Expect(200).Str("token")
	return apitest.Actor{Name: name + " token", Token: tok}
}

func routeCallerNames(cs []routeCaller) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// matrixShareKey is the key of a new share link of the site, read from the link's URL.
func matrixShareKey(t *testing.T, e *apitest.Env, siteID string) string {
	t.Helper()
	r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/sites/"+siteID+"/share-links", map[string]any{"name": "Matrix"}).Expect(201)
	u, err := url.Parse(r.Str("urls.published"))
	if err != nil || u.Query().Get("shareKey") == "" {
		t.Fatalf("no share key in %q (%v)", r.Str("urls.published"), err)
	}
	return u.Query().Get("shareKey")
}

// opSeed derives a generator's seed from an operation's key (FNV-1a).
func opSeed(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}
