package blob_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"docsd/internal/blob"
	"docsd/internal/config"
)

// The S3 backend is tested against a real S3 endpoint when DOCSD_TEST_S3_ENDPOINT (host:port)
// names one, with DOCSD_TEST_S3_ACCESS_KEY, DOCSD_TEST_S3_SECRET_KEY, DOCSD_TEST_S3_BUCKET
// (created if missing; default docsd-test), DOCSD_TEST_S3_USE_TLS and DOCSD_TEST_S3_REGION.
// Otherwise it runs against gofakes3, an S3 server kept in memory and served over HTTP on
// 127.0.0.1, so the minio client, signing and XML parsing are exercised all the same.
// Every test gets its own key prefix, so tests share one bucket without seeing each other.

var (
	fakeOnce sync.Once
	fakeURL  *url.URL
)

func s3Options(t *testing.T) blob.S3Options {
	t.Helper()
	o := blob.S3Options{Bucket: "docsd-test", PathStyle: true, Prefix: "t/" + rand.Text() + "/", TempDir: t.TempDir()}
	if ep := os.Getenv("DOCSD_TEST_S3_ENDPOINT"); ep != "" {
		o.Endpoint = ep
		o.AccessKey = os.Getenv("DOCSD_TEST_S3_ACCESS_KEY")
		o.SecretKey = os.Getenv("DOCSD_TEST_S3_SECRET_KEY")
		o.Region = os.Getenv("DOCSD_TEST_S3_REGION")
		o.UseTLS = os.Getenv("DOCSD_TEST_S3_USE_TLS") == "true"
		if b := os.Getenv("DOCSD_TEST_S3_BUCKET"); b != "" {
			o.Bucket = b
		}
	} else {
		fakeOnce.Do(func() {
			// One fake for the whole test binary; it lives until the process exits.
			srv := httptest.NewServer(gofakes3.New(s3mem.New(), gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
			fakeURL, _ = url.Parse(srv.URL)
		})
		o.Endpoint, o.AccessKey, o.SecretKey = fakeURL.Host, "test-access", "test-secret"
	}
	ensureBucket(t, o)
	return o
}

func ensureBucket(t *testing.T, o blob.S3Options) {
	t.Helper()
	c, err := minio.New(o.Endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(o.AccessKey, o.SecretKey, ""), Secure: o.UseTLS, Region: o.Region,
		BucketLookup: minio.BucketLookupPath,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if ok, err := c.BucketExists(ctx, o.Bucket); err != nil {
		t.Fatalf("bucket %s: %v", o.Bucket, err)
	} else if !ok {
		err := c.MakeBucket(ctx, o.Bucket, minio.MakeBucketOptions{Region: o.Region})
		// Parallel tests race to create it; losing that race is fine.
		if code := minio.ToErrorResponse(err).Code; err != nil && code != "BucketAlreadyOwnedByYou" && code != "BucketAlreadyExists" {
			t.Fatalf("make bucket %s: %v", o.Bucket, err)
		}
	}
}

func newS3(t *testing.T, o blob.S3Options) *blob.S3 {
	t.Helper()
	s, err := blob.NewS3(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestS3Conformance(t *testing.T) {
	t.Parallel()
	testConformance(t, func(t *testing.T) blob.Store { return newS3(t, s3Options(t)) })
}

func TestS3KeyLayout(t *testing.T) {
	t.Parallel()
	o := s3Options(t)
	s := newS3(t, o)
	ref := mustPut(t, s, []byte("laid out by hash"))

	c, err := minio.New(o.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(o.AccessKey, o.SecretKey, ""),
		Secure: o.UseTLS, Region: o.Region, BucketLookup: minio.BucketLookupPath})
	if err != nil {
		t.Fatal(err)
	}
	key := o.Prefix + ref.Hash[:2] + "/" + ref.Hash[2:]
	info, err := c.StatObject(context.Background(), o.Bucket, key, minio.StatObjectOptions{})
	if err != nil || info.Size != ref.Size {
		t.Fatalf("object %s: %+v, %v", key, info, err)
	}
	if left, _ := os.ReadDir(o.TempDir); len(left) != 0 {
		t.Fatalf("temp dir holds %d leftover files", len(left))
	}
}

func TestS3MultipartUpload(t *testing.T) {
	t.Parallel()
	// Beyond the client's 16 MiB part size, so the upload goes in several parts.
	s := newS3(t, s3Options(t))
	blob.SetSinglePutMax(s, 1<<20)
	data := bytes.Repeat([]byte("multipart "), 2<<20) // 20 MiB
	ref := mustPut(t, s, data)
	if ref.Hash != sha(data) || !bytes.Equal(mustRead(t, s, ref.Hash), data) {
		t.Fatal("multipart upload did not round-trip")
	}
}

func TestS3SignsUploadsWithTheBlobHash(t *testing.T) {
	t.Parallel()
	o := s3Options(t)
	rec := &recorder{next: http.DefaultTransport}
	o.Transport = rec
	ref := mustPut(t, newS3(t, o), []byte("verified by the store"))
	puts := rec.puts()
	if len(puts) != 1 || puts[0] != ref.Hash {
		t.Fatalf("PUT payload hashes = %v, want exactly [%s]", puts, ref.Hash)
	}
	mustPut(t, newS3(t, o), []byte("verified by the store"))
	if puts := rec.puts(); len(puts) != 1 {
		t.Fatalf("second put of the same bytes sent %d PUTs, want none", len(puts)-1)
	}
}

// recorder notes the payload hash each PUT request declares.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	put  []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPut {
		r.mu.Lock()
		r.put = append(r.put, req.Header.Get("X-Amz-Content-Sha256"))
		r.mu.Unlock()
	}
	return r.next.RoundTrip(req)
}

func (r *recorder) puts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.put...)
}

func TestS3PingFailsWithoutBucket(t *testing.T) {
	t.Parallel()
	o := s3Options(t)
	o.Bucket = "docsd-no-such-bucket"
	err := newS3(t, o).Ping(context.Background())
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Ping = %v, want a missing-bucket error", err)
	}
}

func TestS3FromConfig(t *testing.T) {
	t.Parallel()
	o := s3Options(t)
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.BlobS3 = config.BlobS3{Endpoint: o.Endpoint, Bucket: o.Bucket, Prefix: o.Prefix, Region: o.Region,
		AccessKey: o.AccessKey, SecretKey: o.SecretKey, UseTLS: o.UseTLS, PathStyle: true}
	s, err := blob.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*blob.S3); !ok {
		t.Fatalf("store is %T, want *blob.S3", s)
	}
	ref := mustPut(t, s, []byte("through the configuration"))
	// The same objects are visible to a store built directly: the configuration reached the client.
	if string(mustRead(t, newS3(t, o), ref.Hash)) != "through the configuration" {
		t.Fatal("configured store wrote elsewhere")
	}
	if entries, _ := os.ReadDir(cfg.DataDir); len(entries) != 0 {
		t.Fatalf("S3 store wrote into the data directory: %v", entries)
	}
}
