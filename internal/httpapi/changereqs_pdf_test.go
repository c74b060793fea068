package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	pngenc "image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/contenttree"
)

// pdfSpace is a space whose change request edits p2: p1 "One" with p1a "One A" under it,
// p2 "Two", and a link, which has nothing to print.
func pdfSpace(t *testing.T, e *apitest.Env) (spaceID, cr string) {
	t.Helper()
	spaceID = newSpace(t, e, e.Admin, e.Org, nil)
	b := newTreeBuilder().
		doc("p1", "", "One", "one", "Alpha paragraph.\n").
		doc("p1a", "p1", "One A", "one-a", "Bravo paragraph.\n").
		doc("p2", "", "Two", "two", "Head text.\n").
		page("lnk", "", contenttree.KindLink, "Elsewhere", "", "")
	p := b.tree.Pages["lnk"]
	p.Target = []byte(`{"kind":"url","url":"https://example.com/"}`)
	b.tree.Pages["lnk"] = p
	replaceContent(t, e, e.Admin, spaceID, b.tree)
	cr = newChangeRequest(t, e, e.Admin, spaceID, "Rewrite two")
	editPage(t, e, spaceID, cr, "p2", map[string]any{"markdown": "Charlie paragraph from the change request.\n"})
	return spaceID, cr
}

// pdfLink asks for a change request's PDF link with a query ("" for none).
func pdfLink(e *apitest.Env, a apitest.Actor, spaceID, cr, query string) *apitest.Resp {
	return e.Get(a, crPath(spaceID, cr)+"/pdf"+query)
}

// fetchPDF fetches a link without any credentials, as whoever was handed it would.
func fetchPDF(t *testing.T, url string) (int, http.Header, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// pdfWords fetches a link, checks that it is a PDF, and returns its text as single-spaced
// words (pdftotext), skipping the test where pdftotext is not installed.
func pdfWords(t *testing.T, url string) string {
	t.Helper()
	status, h, body := fetchPDF(t, url)
	if status != 200 || h.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(body), "%PDF-") {
		t.Fatalf("GET %s: %d %s %.200q", url, status, h.Get("Content-Type"), body)
	}
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not installed")
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

func expectWords(t *testing.T, text string, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the PDF lacks %q: %s", w, text)
		}
	}
	for _, w := range absent {
		if strings.Contains(text, w) {
			t.Errorf("the PDF has %q: %s", w, text)
		}
	}
}

func TestChangeRequestPDF(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, cr := pdfSpace(t, e)

	t.Run("the whole change request, with its edit, from a link that needs no token", func(t *testing.T) {
		r := pdfLink(e, e.Admin, sp, cr, "").Expect(200)
		url := r.Str("url")
		if len(r.Map()) != 1 || !strings.HasPrefix(url, e.URL+"/v1/pdf/") {
			t.Fatalf("answer %s", r.Body)
		}
		expectWords(t, pdfWords(t, url),
			[]string{"Rewrite two", "One", "Alpha paragraph.", "One A", "Bravo paragraph.", "Charlie paragraph from the change request."},
			[]string{"Head text.", "Elsewhere"})
	})
	t.Run("by number too", func(t *testing.T) {
		num := e.Get(e.Admin, crPath(sp, cr)).Expect(200).Num("number")
		pdfLink(e, e.Admin, sp, fmt.Sprint(int(num)), "").Expect(200)
	})
	t.Run("a page prints with its subpages", func(t *testing.T) {
		url := pdfLink(e, e.Admin, sp, cr, "?page=p1").Expect(200).Str("url")
		expectWords(t, pdfWords(t, url), []string{"Alpha paragraph.", "Bravo paragraph."}, []string{"Charlie"})
	})
	t.Run("only prints the page alone", func(t *testing.T) {
		url := pdfLink(e, e.Admin, sp, cr, "?page=p1&only=true").Expect(200).Str("url")
		expectWords(t, pdfWords(t, url), []string{"Alpha paragraph."}, []string{"Bravo", "Charlie"})
	})
	t.Run("the link keeps the revision it was made for", func(t *testing.T) {
		url := pdfLink(e, e.Admin, sp, cr, "?page=p2&only=true").Expect(200).Str("url")
		editPage(t, e, sp, cr, "p2", map[string]any{"markdown": "Delta paragraph.\n"})
		expectWords(t, pdfWords(t, url), []string{"Charlie paragraph"}, []string{"Delta"})
		url = pdfLink(e, e.Admin, sp, cr, "?page=p2&only=true").Expect(200).Str("url")
		expectWords(t, pdfWords(t, url), []string{"Delta paragraph."}, []string{"Charlie"})
	})
	t.Run("bad queries are 400 naming the field", func(t *testing.T) {
		pdfLink(e, e.Admin, sp, cr, "?page=nope").ExpectError(400).ExpectMessage("page", "nope")
		pdfLink(e, e.Admin, sp, cr, "?page=lnk").ExpectError(400).ExpectMessage("page", "link")
		pdfLink(e, e.Admin, sp, cr, "?only=true").ExpectError(400).ExpectMessage("page", "required")
		pdfLink(e, e.Admin, sp, cr, "?only=maybe").ExpectError(400).ExpectMessage("only")
		pdfLink(e, e.Admin, sp, cr, "?page="+strings.Repeat("x", 101)).ExpectError(400).ExpectMessage("page", "100")
	})
	t.Run("a page made only in the change request prints; one only in the head does not", func(t *testing.T) {
		page := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Fresh", "markdown": "Echo paragraph.\n"}).Expect(201).Str("page")
		url := pdfLink(e, e.Admin, sp, cr, "?only=true&page="+page).Expect(200).Str("url")
		expectWords(t, pdfWords(t, url), []string{"Fresh", "Echo paragraph."}, []string{"Alpha"})
		other := newChangeRequest(t, e, e.Admin, sp, "other")
		pdfLink(e, e.Admin, sp, other, "?page="+page).ExpectError(400).ExpectMessage("page")
	})
	t.Run("who cannot see the space gets 404", func(t *testing.T) {
		outsider := e.NewUser("outsider")
		pdfLink(e, outsider, sp, cr, "").ExpectError(404)
		pdfLink(e, e.Admin, sp, "nosuchcr", "").ExpectError(404)
		pdfLink(e, apitest.Anonymous, sp, cr, "").ExpectError(401)
	})
}

func TestChangeRequestPDFLinkIsChecked(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, cr := pdfSpace(t, e)
	url := pdfLink(e, e.Admin, sp, cr, "?page=p1&only=true").Expect(200).Str("url")
	payload, sig, _ := strings.Cut(strings.TrimPrefix(url, e.URL+"/v1/pdf/"), ".")

	forged := map[string]string{
		"an altered payload":               e.URL + "/v1/pdf/" + flip(payload) + "." + sig,
		"an altered signature":             e.URL + "/v1/pdf/" + payload + "." + flip(sig),
		"no signature":                     e.URL + "/v1/pdf/" + payload,
		"another page with this signature": e.URL + "/v1/pdf/" + repage(t, payload, "p2") + "." + sig,
	}
	for name, u := range forged {
		t.Run(name+" is refused", func(t *testing.T) {
			status, _, body := fetchPDF(t, u)
			if status != 403 || !strings.Contains(string(body), `"code":403`) || !strings.Contains(string(body), "token") {
				t.Fatalf("%d %s", status, body)
			}
		})
	}
	t.Run("another process sharing the database accepts the link", func(t *testing.T) {
		other := e.Peer()
		expectWords(t, pdfWords(t, strings.Replace(url, e.URL, other.URL, 1)), []string{"Alpha paragraph."}, nil)
	})
	t.Run("the link expires after an hour", func(t *testing.T) {
		_, _, first := fetchPDF(t, url)
		e.Clock.Advance(59 * time.Minute)
		// The same bytes, although the PDF records when it was drawn: it was kept, not redrawn.
		if status, _, again := fetchPDF(t, url); status != 200 || !bytes.Equal(again, first) {
			t.Fatalf("after 59 minutes: %d, same bytes %v", status, bytes.Equal(again, first))
		}
		e.Clock.Advance(2 * time.Minute)
		status, _, body := fetchPDF(t, url)
		if status != 403 || !strings.Contains(string(body), "expired") {
			t.Fatalf("after 61 minutes: %d %s", status, body)
		}
	})
}

// repage rewrites a link's payload to name another page, leaving it well-formed.
func repage(t *testing.T, payload, page string) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["p"] != "p1" {
		t.Fatalf("payload %s: %v", b, err)
	}
	m["p"] = page
	b, _ = json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b)
}

// flip changes one character of a token part.
func flip(s string) string {
	b := []byte(s)
	if b[len(b)/2] == 'A' {
		b[len(b)/2] = 'B'
	} else {
		b[len(b)/2] = 'A'
	}
	return string(b)
}

func TestChangeRequestPDFPageLimit(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.PDFMaxPages = 2 })
	sp, cr := pdfSpace(t, e)
	pdfLink(e, e.Admin, sp, cr, "").ExpectError(400).ExpectMessage("3 pages", "limit of 2")
	url := pdfLink(e, e.Admin, sp, cr, "?page=p1").Expect(200).Str("url")
	expectWords(t, pdfWords(t, url), []string{"Alpha paragraph.", "Bravo paragraph."}, nil)
}

func TestChangeRequestPDFDrawsImages(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	var png bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	if err := pngenc.Encode(&png, img); err != nil {
		t.Fatal(err)
	}
	tree := docsTree()
	tree[".gitbook/assets/logo.png"] = png.String()
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, tree)).Expect(201)
	install := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.1.pages.0.id")
	cr := newChangeRequest(t, e, e.Admin, sp, "images")

	url := pdfLink(e, e.Admin, sp, cr, "?only=true&page="+install).Expect(200).Str("url")
	_, _, body := fetchPDF(t, url)
	if !bytes.Contains(body, []byte("/Subtype /Image")) {
		t.Fatalf("the PDF of a page showing an image has no image")
	}
	url = pdfLink(e, e.Admin, sp, cr, "?only=true&page="+e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.0.id")).Expect(200).Str("url")
	if _, _, body := fetchPDF(t, url); bytes.Contains(body, []byte("/Subtype /Image")) {
		t.Fatalf("the PDF of a page without an image has one")
	}
}
