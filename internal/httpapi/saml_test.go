package httpapi_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// selfSignedPEM makes a real self-signed certificate whose subject carries padding bytes, so
// tests can reach a given PEM size.
func selfSignedPEM(t *testing.T, padding int) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "idp.example.test", OrganizationalUnit: []string{strings.Repeat("p", padding)}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(365 * 24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// certificateOfLength returns a valid PEM certificate of exactly n characters: the largest
// certificate that fits, followed by line breaks.
func certificateOfLength(t *testing.T, n int) string {
	t.Helper()
	best := ""
	lo, hi := 0, n
	for lo <= hi {
		mid := (lo + hi) / 2
		c := selfSignedPEM(t, mid)
		if len(c) <= n {
			best, lo = c, mid+1
		} else {
			hi = mid - 1
		}
	}
	if best == "" || n-len(best) > 200 {
		t.Fatalf("cannot build a certificate of %d characters", n)
	}
	return best + strings.Repeat("\n", n-len(best))
}

func samlPath(e *apitest.Env) string { return "/v1/orgs/" + e.Org + "/saml" }

func TestSAMLProviderCreate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	cert := selfSignedPEM(t, 0)
	team := mustCreateTeam(t, e, e.Admin, "SSO people")

	r := e.Post(e.Admin, samlPath(e), map[string]any{
		"label": "Okta", "entityID": "http://www.okta.com/exk1", "certificate": cert,
		"ssoURL": "https://example.okta.com/app/sso/saml", "defaultTeam": team, "defaultRole": "edit",
	}).Expect(201)
	id := r.Str("id")
	loc := e.URL + samlPath(e) + "/" + id
	if r.Header.Get("Location") != loc {
		t.Errorf("Location = %q, want %q", r.Header.Get("Location"), loc)
	}
	after := e.Get(e.Admin, samlPath(e)+"/"+id).Expect(200)
	for _, got := range []*apitest.Resp{r, after} {
		want := map[string]any{
			"object": "saml-provider", "id": id, "label": "Okta", "entityID": "http://www.okta.com/exk1",
			"certificate": strings.TrimSpace(cert), "ssoURL": "https://example.okta.com/app/sso/saml",
			"defaultRole": "edit", "status": "active", "urls.location": loc,
			"service.acsURL":     e.URL + "/sso/saml/" + id + "/acs",
			"service.startURL":   e.URL + "/sso/saml/" + id + "/start",
			"service.entityID":   e.URL + "/sso/saml/" + id + "/metadata",
			"defaultTeam.object": "team", "defaultTeam.id": team, "defaultTeam.title": "SSO people",
			"defaultTeam.members": 1.0, "defaultTeam.spaces": 0.0, "defaultTeam.permissions.admin": true,
		}
		for k, v := range want {
			if x, _ := got.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
		if !strings.HasSuffix(got.Str("createdAt"), "Z") {
			t.Errorf("createdAt = %q", got.Str("createdAt"))
		}
	}

	t.Run("a label alone makes a pending provider with the organization's default role", func(t *testing.T) {
		r := e.Post(e.Admin, samlPath(e), map[string]any{"label": "Later"}).Expect(201)
		if r.Str("status") != "pending" || r.Str("entityID") != "" || r.Str("certificate") != "" || r.Str("ssoURL") != "about:blank" {
			t.Errorf("pending provider wrong: %s", r.Body)
		}
		if r.Str("defaultRole") != "read" || r.Has("defaultTeam") {
			t.Errorf("defaults wrong: %s", r.Body)
		}
	})
	t.Run("defaultRole null admits guests", func(t *testing.T) {
		r := e.Post(e.Admin, samlPath(e), map[string]any{"label": "Guests", "defaultRole": nil}).Expect(201)
		if v, ok := r.Get("defaultRole"); !ok || v != nil {
			t.Errorf("defaultRole = %v (present %v), want null", v, ok)
		}
	})
}

func TestSAMLProviderLimits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	cert := selfSignedPEM(t, 0)
	otherTeam := func() string {
		other := e.NewOrg(e.Admin, "Other")
		return e.Put(e.Admin, "/v1/orgs/"+other+"/teams", map[string]any{"title": "Theirs"}).Expect(201).Str("id")
	}()
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not really a key")}))
	garbage := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")}))
	url2048 := "https://idp.example.test/" + strings.Repeat("a", 2048-len("https://idp.example.test/"))

	valid := []struct {
		name  string
		field string
		value any
	}{
		{"label of 1 character", "label", "L"},
		{"label of 30 characters", "label", strings.Repeat("l", 30)},
		{"entityID of 1024 characters", "entityID", strings.Repeat("e", 1024)},
		{"certificate of 10000 characters", "certificate", certificateOfLength(t, 10000)},
		{"ssoURL of 2048 characters", "ssoURL", url2048},
		{"http ssoURL", "ssoURL", "http://idp.internal/sso"},
	}
	for _, tc := range valid {
		t.Run("accepts "+tc.name, func(t *testing.T) {
			body := map[string]any{"label": "Limits", tc.field: tc.value}
			r := e.Post(e.Admin, samlPath(e), body).Expect(201)
			want := strings.TrimSpace(tc.value.(string))
			if got := r.Str(tc.field); got != want {
				t.Errorf("%s = %.40q…, want %.40q…", tc.field, got, want)
			}
			if got := e.Get(e.Admin, samlPath(e)+"/"+r.Str("id")).Expect(200).Str(tc.field); got != want {
				t.Errorf("stored %s differs", tc.field)
			}
		})
	}

	invalid := []struct {
		name      string
		body      map[string]any
		fragments []string
	}{
		{"missing label", map[string]any{"entityID": "x"}, []string{"label", "required"}},
		{"empty label", map[string]any{"label": ""}, []string{"label", "1 to 30"}},
		{"null label", map[string]any{"label": nil}, []string{"label"}},
		{"label of 31 characters", map[string]any{"label": strings.Repeat("l", 31)}, []string{"label", "30"}},
		{"entityID of 1025 characters", map[string]any{"label": "L", "entityID": strings.Repeat("e", 1025)}, []string{"entityID", "1024"}},
		{"certificate of 10001 characters", map[string]any{"label": "L", "certificate": certificateOfLength(t, 10001)}, []string{"certificate", "10000"}},
		{"certificate that is too big", map[string]any{"label": "L", "certificate": selfSignedPEM(t, 9000)}, []string{"certificate", "10000"}},
		{"certificate that is not PEM", map[string]any{"label": "L", "certificate": "MIIBhello"}, []string{"certificate", "PEM"}},
		{"PEM block that is not a certificate", map[string]any{"label": "L", "certificate": keyPEM}, []string{"certificate", "PEM"}},
		{"PEM certificate with bad contents", map[string]any{"label": "L", "certificate": garbage}, []string{"certificate", "X.509"}},
		{"two certificates", map[string]any{"label": "L", "certificate": cert + cert}, []string{"certificate", "one"}},
		{"text after the certificate", map[string]any{"label": "L", "certificate": cert + "trailer"}, []string{"certificate"}},
		{"ssoURL of 2049 characters", map[string]any{"label": "L", "ssoURL": url2048 + "b"}, []string{"ssoURL", "2048"}},
		{"relative ssoURL", map[string]any{"label": "L", "ssoURL": "/sso/saml"}, []string{"ssoURL", "absolute"}},
		{"ftp ssoURL", map[string]any{"label": "L", "ssoURL": "ftp://idp.example.test/sso"}, []string{"ssoURL", "http"}},
		{"ssoURL that is not a URL", map[string]any{"label": "L", "ssoURL": "not a url"}, []string{"ssoURL"}},
		{"unknown defaultTeam", map[string]any{"label": "L", "defaultTeam": "nope"}, []string{"defaultTeam", "nope"}},
		{"defaultTeam of another organization", map[string]any{"label": "L", "defaultTeam": otherTeam}, []string{"defaultTeam", otherTeam}},
		{"bad defaultRole", map[string]any{"label": "L", "defaultRole": "owner"}, []string{"defaultRole", "owner"}},
		{"unknown field", map[string]any{"label": "L", "status": "active"}, []string{"status"}},
		{"label of the wrong type", map[string]any{"label": 7}, []string{"label"}},
	}
	before := e.Get(e.Admin, samlPath(e)).Expect(200).Num("count")
	for _, tc := range invalid {
		t.Run("400 for "+tc.name, func(t *testing.T) {
			e.Post(e.Admin, samlPath(e), tc.body).Expect(400).ExpectMessage(tc.fragments...)
		})
	}
	t.Run("refused creations wrote nothing", func(t *testing.T) {
		if got := e.Get(e.Admin, samlPath(e)).Expect(200).Num("count"); got != before {
			t.Errorf("count = %v, want %v", got, before)
		}
	})
}

func TestSAMLProviderPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	cert := selfSignedPEM(t, 0)
	team := mustCreateTeam(t, e, e.Admin, "Default")
	id := e.Post(e.Admin, samlPath(e), map[string]any{"label": "Azure"}).Expect(201).Str("id")
	path := samlPath(e) + "/" + id

	t.Run("completing the configuration activates the provider", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"entityID": "https://sts.windows.net/x/", "ssoURL": "https://login.example.test/saml"}).Expect(200)
		if r.Str("status") != "pending" || r.Str("label") != "Azure" {
			t.Errorf("after a partial patch: %s", r.Body)
		}
		r = e.Patch(e.Admin, path, map[string]any{"certificate": cert, "defaultTeam": team, "defaultRole": "comment"}).Expect(200)
		if r.Str("status") != "active" || r.Str("defaultTeam.id") != team || r.Str("defaultRole") != "comment" || r.Str("entityID") != "https://sts.windows.net/x/" {
			t.Errorf("after completing: %s", r.Body)
		}
		after := e.Get(e.Admin, path).Expect(200)
		if after.Str("status") != "active" || after.Str("certificate") != strings.TrimSpace(cert) {
			t.Errorf("stored provider wrong: %s", after.Body)
		}
	})
	t.Run("an invalid field changes nothing", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{"label": "Renamed", "ssoURL": "nope"}).Expect(400).ExpectMessage("ssoURL")
		e.Patch(e.Admin, path, map[string]any{"label": strings.Repeat("l", 31)}).Expect(400).ExpectMessage("label", "30")
		e.Patch(e.Admin, path, map[string]any{"label": ""}).Expect(400).ExpectMessage("label")
		e.Patch(e.Admin, path, map[string]any{"label": "Renamed", "defaultTeam": "nope"}).Expect(400).ExpectMessage("defaultTeam")
		e.Patch(e.Admin, path, map[string]any{"certificate": "-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n"}).Expect(400).ExpectMessage("certificate")
		if got := e.Get(e.Admin, path).Expect(200).Str("label"); got != "Azure" {
			t.Errorf("label = %q after refused patches", got)
		}
	})
	t.Run("null removes the default team and makes the default role guest", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"defaultTeam": nil, "defaultRole": nil, "label": "Entra"}).Expect(200)
		if r.Has("defaultTeam") || r.Str("label") != "Entra" {
			t.Errorf("after null patch: %s", r.Body)
		}
		if v, _ := r.Get("defaultRole"); v != nil {
			t.Errorf("defaultRole = %v, want null", v)
		}
	})
	t.Run("an empty certificate makes the provider pending again", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"certificate": ""}).Expect(200)
		if r.Str("status") != "pending" || r.Str("certificate") != "" {
			t.Errorf("after clearing: %s", r.Body)
		}
	})
	t.Run("deleting the default team drops it from the provider", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{"defaultTeam": team}).Expect(200)
		e.Delete(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+team).Expect(204)
		if r := e.Get(e.Admin, path).Expect(200); r.Has("defaultTeam") {
			t.Errorf("defaultTeam still shown: %s", r.Body)
		}
	})
	t.Run("absent provider is 404", func(t *testing.T) {
		e.Patch(e.Admin, samlPath(e)+"/nope", map[string]any{"label": "X"}).Expect(404)
	})
}

func TestSAMLProviderAccessListDelete(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	editor := e.Member("editor", auth.Edit)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, e.Post(e.Admin, samlPath(e), map[string]any{"label": "IdP"}).Expect(201).Str("id"))
		e.Clock.Advance(time.Millisecond)
	}
	path := samlPath(e) + "/" + ids[0]

	t.Run("lists every provider oldest first", func(t *testing.T) {
		items := e.WalkList(e.Admin, samlPath(e), 2)
		var got []string
		for _, it := range items {
			got = append(got, it["id"].(string))
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			t.Errorf("walked %v, want %v", got, ids)
		}
		if n := e.Get(e.Admin, samlPath(e)+"?limit=1").Expect(200).Num("count"); n != 5 {
			t.Errorf("count = %v", n)
		}
	})
	t.Run("only admins", func(t *testing.T) {
		for _, a := range []apitest.Actor{editor, guest} {
			e.Get(a, samlPath(e)).Expect(403)
			e.Post(a, samlPath(e), map[string]any{"label": "X"}).Expect(403)
			e.Get(a, path).Expect(403)
			e.Patch(a, path, map[string]any{"label": "X"}).Expect(403)
			e.Delete(a, path).Expect(403)
		}
		e.Get(outsider, samlPath(e)).Expect(404)
		e.Post(outsider, samlPath(e), map[string]any{"label": "X"}).Expect(404)
		e.Get(outsider, path).Expect(404)
		e.Delete(outsider, path).Expect(404)
		e.Get(apitest.Anonymous, path).Expect(401)
		if got := e.Get(e.Admin, path).Expect(200).Str("label"); got != "IdP" {
			t.Errorf("label = %q", got)
		}
	})
	t.Run("providers of another organization are not found", func(t *testing.T) {
		other := e.NewOrg(e.Admin, "Other")
		e.Get(e.Admin, "/v1/orgs/"+other+"/saml/"+ids[0]).Expect(404)
		e.Delete(e.Admin, "/v1/orgs/"+other+"/saml/"+ids[0]).Expect(204)
		e.Get(e.Admin, path).Expect(200)
	})
	t.Run("delete answers 204, also when absent", func(t *testing.T) {
		e.Delete(e.Admin, path).Expect(204)
		e.Get(e.Admin, path).Expect(404)
		e.Delete(e.Admin, path).Expect(204)
		if n := e.Get(e.Admin, samlPath(e)).Expect(200).Num("count"); n != 4 {
			t.Errorf("count = %v after delete, want 4", n)
		}
	})
}

func TestSSOLogins(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	cert := selfSignedPEM(t, 0)
	path := "/v1/orgs/" + e.Org + "/sso"

	r := e.Get(e.Admin, path).Expect(200)
	if string(r.Body) != "{\"items\":[]}\n" {
		t.Errorf("empty SSO list = %s", r.Body)
	}
	active := e.Post(e.Admin, samlPath(e), map[string]any{"label": "Okta", "entityID": "okta", "certificate": cert,
		"ssoURL": "https://okta.example.test/sso"}).Expect(201).Str("id")
	e.Post(e.Admin, samlPath(e), map[string]any{"label": "Unfinished"}).Expect(201)

	reader := e.Member("reader", auth.Read)
	guest := e.Member("guest", auth.Guest)
	for _, a := range []apitest.Actor{e.Admin, reader, guest} {
		r := e.Get(a, path).Expect(200)
		m := r.Map()
		if _, has := m["next"]; has {
			t.Errorf("SSO list has next: %s", r.Body)
		}
		if _, has := m["count"]; has {
			t.Errorf("SSO list has count: %s", r.Body)
		}
		items := r.Items()
		if len(items) != 1 || items[0]["id"] != active || items[0]["label"] != "Okta" ||
			items[0]["startURL"] != e.URL+"/sso/saml/"+active+"/start" || len(items[0]) != 3 {
			t.Errorf("SSO list for %s = %s", a.Name, r.Body)
		}
	}
	e.Get(e.NewUser("outsider"), path).Expect(404)
	e.Get(apitest.Anonymous, path).Expect(401)
}
