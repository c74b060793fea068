package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/blob"
)

// testConformance runs the behaviour every Store promises against a fresh store from open.
func testConformance(t *testing.T, open func(t *testing.T) blob.Store) {
	ctx := context.Background()

	t.Run("put stores the bytes under their sha256", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		data := []byte("hello, blob")
		ref := mustPut(t, s, data)
		if want := sha(data); ref.Hash != want || ref.Size != int64(len(data)) {
			t.Fatalf("ref = %+v, want hash %s size %d", ref, want, len(data))
		}
		if got := mustRead(t, s, ref.Hash); !bytes.Equal(got, data) {
			t.Fatalf("read back %q, want %q", got, data)
		}
		st, err := s.Stat(ctx, ref.Hash)
		if err != nil || st != ref {
			t.Fatalf("Stat = %+v, %v; want %+v", st, err, ref)
		}
	})

	t.Run("empty blob is stored", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		ref := mustPut(t, s, nil)
		if ref.Hash != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" || ref.Size != 0 {
			t.Fatalf("ref = %+v", ref)
		}
		if got := mustRead(t, s, ref.Hash); len(got) != 0 {
			t.Fatalf("read back %d bytes", len(got))
		}
	})

	t.Run("put of stored bytes answers the same ref", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		data := bytes.Repeat([]byte("idempotent "), 1000)
		first := mustPut(t, s, data)
		second := mustPut(t, s, data)
		if first != second {
			t.Fatalf("second put = %+v, first %+v", second, first)
		}
		if got := mustRead(t, s, first.Hash); !bytes.Equal(got, data) {
			t.Fatal("bytes changed after the second put")
		}
	})

	t.Run("size limit", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		data := bytes.Repeat([]byte{7}, 1000)
		if _, err := s.Put(ctx, bytes.NewReader(data), 1000); err != nil {
			t.Fatalf("put at the limit: %v", err)
		}
		over := append(bytes.Repeat([]byte{8}, 1000), 9)
		_, err := s.Put(ctx, bytes.NewReader(over), 1000)
		if !errors.Is(err, blob.ErrTooLarge) {
			t.Fatalf("put beyond the limit: err = %v, want ErrTooLarge", err)
		}
		if e, ok := apperr.As(err); !ok || e.Status() != http.StatusRequestEntityTooLarge || !strings.Contains(e.Message, "1000 bytes") {
			t.Fatalf("put beyond the limit: apperr = %+v, want 413 naming the limit", e)
		}
		if _, err := s.Stat(ctx, sha(over)); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("refused blob was stored: Stat err = %v", err)
		}
		if _, err := s.Put(ctx, bytes.NewReader(data), 0); err == nil {
			t.Fatal("put with maxBytes 0 succeeded")
		}
	})

	t.Run("missing blob is not found", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		missing := sha([]byte("never stored"))
		if _, err := s.Open(ctx, missing); !errors.Is(err, blob.ErrNotFound) || apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("Open err = %v, want ErrNotFound carrying apperr.NotFound", err)
		}
		if _, err := s.Stat(ctx, missing); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("Stat err = %v, want ErrNotFound", err)
		}
		if err := s.Delete(ctx, missing); err != nil {
			t.Fatalf("Delete of a missing blob: %v", err)
		}
	})

	t.Run("malformed hash is refused", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		good := sha([]byte("x"))
		for _, h := range []string{"", "../../etc/passwd", good[:63], strings.ToUpper(good), good[:62] + "/x", good + "0"} {
			if _, err := s.Open(ctx, h); !errors.Is(err, blob.ErrInvalidHash) || apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("Open(%q) err = %v, want ErrInvalidHash", h, err)
			}
			if _, err := s.Stat(ctx, h); !errors.Is(err, blob.ErrInvalidHash) {
				t.Errorf("Stat(%q) err = %v, want ErrInvalidHash", h, err)
			}
			if err := s.Delete(ctx, h); !errors.Is(err, blob.ErrInvalidHash) {
				t.Errorf("Delete(%q) err = %v, want ErrInvalidHash", h, err)
			}
		}
	})

	t.Run("delete removes the blob and put brings it back", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		data := []byte("short-lived")
		ref := mustPut(t, s, data)
		if err := s.Delete(ctx, ref.Hash); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stat(ctx, ref.Hash); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("Stat after delete: err = %v", err)
		}
		if _, err := s.Open(ctx, ref.Hash); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("Open after delete: err = %v", err)
		}
		if err := s.Delete(ctx, ref.Hash); err != nil {
			t.Fatalf("second delete: %v", err)
		}
		mustPut(t, s, data)
		if got := mustRead(t, s, ref.Hash); !bytes.Equal(got, data) {
			t.Fatalf("read after re-put = %q", got)
		}
	})

	t.Run("concurrent puts of the same content", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
		const n = 8
		refs := make([]blob.Ref, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { refs[i], errs[i] = s.Put(ctx, bytes.NewReader(data), int64(len(data))) })
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || refs[i] != refs[0] {
				t.Fatalf("put %d = %+v, %v; put 0 = %+v", i, refs[i], errs[i], refs[0])
			}
		}
		if got := mustRead(t, s, refs[0].Hash); !bytes.Equal(got, data) {
			t.Fatal("bytes differ after concurrent puts")
		}
	})

	t.Run("distinct contents are kept apart", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		a, b := mustPut(t, s, []byte("alpha")), mustPut(t, s, []byte("beta"))
		if a.Hash == b.Hash {
			t.Fatal("two contents share a hash")
		}
		if string(mustRead(t, s, a.Hash)) != "alpha" || string(mustRead(t, s, b.Hash)) != "beta" {
			t.Fatal("contents mixed up")
		}
	})

	t.Run("failed reads store nothing", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		head := []byte("partial upload")
		broken := io.MultiReader(bytes.NewReader(head), errReader{errors.New("connection reset")})
		if _, err := s.Put(ctx, broken, 1<<20); err == nil || !strings.Contains(err.Error(), "connection reset") {
			t.Fatalf("put from a failing reader: err = %v", err)
		}
		if _, err := s.Stat(ctx, sha(head)); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("partial upload was stored: Stat err = %v", err)
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.Put(cancelled, bytes.NewReader(head), 1<<20); !errors.Is(err, context.Canceled) {
			t.Fatalf("put with a cancelled context: err = %v", err)
		}
		if _, err := s.Stat(ctx, sha(head)); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("cancelled upload was stored: Stat err = %v", err)
		}
	})

	t.Run("open seeks", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		ref := mustPut(t, s, []byte("0123456789"))
		obj, err := s.Open(ctx, ref.Hash)
		if err != nil {
			t.Fatal(err)
		}
		defer obj.Close()
		if obj.Ref != ref {
			t.Fatalf("object ref = %+v, want %+v", obj.Ref, ref)
		}
		if _, err := obj.Seek(6, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		rest, err := io.ReadAll(obj)
		if err != nil || string(rest) != "6789" {
			t.Fatalf("after seek read %q, %v", rest, err)
		}
	})

	t.Run("serve answers ranges and conditional requests", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		ref := mustPut(t, s, []byte("served over http"))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := blob.Serve(w, r, s, strings.TrimPrefix(r.URL.Path, "/"), "text/plain"); err != nil {
				e, _ := apperr.As(err)
				http.Error(w, err.Error(), e.Status())
			}
		}))
		defer srv.Close()

		resp := get(t, srv.URL+"/"+ref.Hash, nil)
		if resp.status != 200 || resp.body != "served over http" || resp.header.Get("ETag") != `"`+ref.Hash+`"` ||
			resp.header.Get("Content-Type") != "text/plain" {
			t.Fatalf("full GET = %d %q %v", resp.status, resp.body, resp.header)
		}
		resp = get(t, srv.URL+"/"+ref.Hash, map[string]string{"Range": "bytes=7-10"})
		if resp.status != http.StatusPartialContent || resp.body != "over" {
			t.Fatalf("range GET = %d %q", resp.status, resp.body)
		}
		resp = get(t, srv.URL+"/"+ref.Hash, map[string]string{"If-None-Match": `"` + ref.Hash + `"`})
		if resp.status != http.StatusNotModified {
			t.Fatalf("conditional GET = %d", resp.status)
		}
		if resp = get(t, srv.URL+"/"+sha([]byte("absent")), nil); resp.status != http.StatusNotFound {
			t.Fatalf("GET of a missing blob = %d", resp.status)
		}
		if resp = get(t, srv.URL+"/not-a-hash", nil); resp.status != http.StatusBadRequest {
			t.Fatalf("GET of a malformed hash = %d", resp.status)
		}
	})

	t.Run("ping", func(t *testing.T) {
		t.Parallel()
		if err := open(t).Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func mustPut(t *testing.T, s blob.Store, data []byte) blob.Ref {
	t.Helper()
	ref, err := s.Put(context.Background(), bytes.NewReader(data), int64(len(data))+1)
	if err != nil {
		t.Fatalf("put: %v", err)
	}
	return ref
}

func mustRead(t *testing.T, s blob.Store, hash string) []byte {
	t.Helper()
	obj, err := s.Open(context.Background(), hash)
	if err != nil {
		t.Fatalf("open %s: %v", hash, err)
	}
	defer obj.Close()
	b, err := io.ReadAll(obj)
	if err != nil {
		t.Fatalf("read %s: %v", hash, err)
	}
	if int64(len(b)) != obj.Size {
		t.Fatalf("read %d bytes, object says %d", len(b), obj.Size)
	}
	return b
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

type response struct {
	status int
	header http.Header
	body   string
}

func get(t *testing.T, url string, headers map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, resp.Header, string(body)}
}
