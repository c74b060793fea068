package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"docsd/internal/apperr"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Options locate a bucket in an S3-compatible store (AWS S3, MinIO, Ceph RGW, R2, …).
type S3Options struct {
	Endpoint  string // host[:port], no scheme: s3.amazonaws.com, minio.internal:9000
	UseTLS    bool   // https to the endpoint
	Region    string // empty lets the client discover it
	Bucket    string // must exist
	Prefix    string // key prefix for every blob, e.g. "docsd/"; may be empty
	AccessKey string
	SecretKey string
	PathStyle bool // address the bucket as endpoint/bucket rather than bucket.endpoint
	// TempDir holds uploads while they are hashed, before they are sent; empty means
	// the system's temporary directory.
	TempDir string
	// Transport replaces the HTTP transport, for tests; nil uses the client's default.
	Transport http.RoundTripper
}

// S3 keeps blobs as objects <prefix>ab/cdef… in one bucket.
type S3 struct {
	client       *minio.Client
	bucket       string
	prefix       string
	tempDir      string
	singlePutMax int64 // larger blobs go up in parts
}

// maxSinglePut is the largest object S3 accepts in one PUT.
const maxSinglePut = 5 << 30

// NewS3 makes a client for the bucket. It does not contact the store: Ping does.
func NewS3(o S3Options) (*S3, error) {
	if o.Endpoint == "" || o.Bucket == "" {
		return nil, errors.New("blob: S3 endpoint and bucket are required")
	}
	client, err := minio.New(o.Endpoint, &minio.Options{
		Creds:        credentials.NewStaticV4(o.AccessKey, o.SecretKey, ""),
		Secure:       o.UseTLS,
		Region:       o.Region,
		BucketLookup: lookupStyle(o.PathStyle),
		Transport:    o.Transport,
	})
	if err != nil {
		return nil, fmt.Errorf("blob: S3 client: %w", err)
	}
	prefix := strings.TrimLeft(o.Prefix, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	tempDir := o.TempDir
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	return &S3{client: client, bucket: o.Bucket, prefix: prefix, tempDir: tempDir, singlePutMax: maxSinglePut}, nil
}

func lookupStyle(pathStyle bool) minio.BucketLookupType {
	if pathStyle {
		return minio.BucketLookupPath
	}
	return minio.BucketLookupAuto
}

func (s *S3) key(hash string) string { return s.prefix + keyOf(hash) }

// Put spools the upload to learn its hash, then sends it unless the object already exists.
// Two processes storing the same bytes at once both write the same object, which is harmless.
func (s *S3) Put(ctx context.Context, r io.Reader, maxBytes int64) (Ref, error) {
	f, ref, err := spool(ctx, s.tempDir, r, maxBytes)
	if err != nil {
		return Ref{}, err
	}
	defer discard(f)
	if got, err := s.Stat(ctx, ref.Hash); err == nil && got.Size == ref.Size {
		return ref, nil
	} else if err != nil && !errors.Is(err, ErrNotFound) {
		return Ref{}, err
	}
	if err := s.upload(ctx, f, ref); err != nil {
		return Ref{}, fmt.Errorf("blob: S3 put %s: %w", ref.Hash, err)
	}
	return ref, nil
}

// upload sends a spooled blob. In one PUT, the request is signed with the blob's own sha256
// as its payload hash, so the store itself refuses bytes that were damaged on the way.
// Blobs too large for one PUT go in parts, unsigned per part (aws-chunked streaming
// signatures are avoided: several S3-compatible servers mishandle them).
func (s *S3) upload(ctx context.Context, f *os.File, ref Ref) error {
	opts := minio.PutObjectOptions{ContentType: "application/octet-stream", DisableContentSha256: true}
	if ref.Size <= s.singlePutMax {
		_, err := minio.Core{Client: s.client}.PutObject(ctx, s.bucket, s.key(ref.Hash), f, ref.Size, "", ref.Hash, opts)
		return err
	}
	_, err := s.client.PutObject(ctx, s.bucket, s.key(ref.Hash), f, ref.Size, opts)
	return err
}

// Open returns the object. Reads are fetched lazily and Seek moves where the next ranged
// GET starts, so serving a range does not download the whole blob.
func (s *S3) Open(ctx context.Context, hash string) (*Object, error) {
	if err := checkHash(hash); err != nil {
		return nil, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, s.key(hash), minio.GetObjectOptions{})
	if err != nil {
		return nil, s.mapErr(hash, err)
	}
	info, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, s.mapErr(hash, err)
	}
	return &Object{ReadSeekCloser: obj, Ref: Ref{Hash: hash, Size: info.Size}}, nil
}

// Stat asks the store for the object's size.
func (s *S3) Stat(ctx context.Context, hash string) (Ref, error) {
	if err := checkHash(hash); err != nil {
		return Ref{}, err
	}
	info, err := s.client.StatObject(ctx, s.bucket, s.key(hash), minio.StatObjectOptions{})
	if err != nil {
		return Ref{}, s.mapErr(hash, err)
	}
	return Ref{Hash: hash, Size: info.Size}, nil
}

// Delete removes the object; S3 answers success for an absent key as well.
func (s *S3) Delete(ctx context.Context, hash string) error {
	if err := checkHash(hash); err != nil {
		return err
	}
	err := s.client.RemoveObject(ctx, s.bucket, s.key(hash), minio.RemoveObjectOptions{})
	if err != nil && !errors.Is(s.mapErr(hash, err), ErrNotFound) {
		return fmt.Errorf("blob: S3 delete %s: %w", hash, err)
	}
	return nil
}

// Ping checks that the bucket exists and the credentials are accepted. Call it at start-up:
// S3 answers a HEAD in a missing bucket with a bare 404, which Stat cannot tell from a
// missing blob.
func (s *S3) Ping(ctx context.Context) error {
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("blob: S3 bucket %s: %w", s.bucket, err)
	}
	if !ok {
		return fmt.Errorf("blob: S3 bucket %s does not exist", s.bucket)
	}
	return nil
}

// String names the store in logs.
func (s *S3) String() string {
	return "s3:" + s.client.EndpointURL().String() + "/" + s.bucket + "/" + s.prefix
}

func (s *S3) mapErr(hash string, err error) error {
	var resp minio.ErrorResponse
	if errors.As(err, &resp) && (resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound && resp.Code != "NoSuchBucket") {
		return notFound(hash)
	}
	return fmt.Errorf("blob: S3 %s: %w", hash, err)
}

// PresignPut returns a URL that takes one PUT of an object under key (below the store's
// prefix, beside the blobs) until expires has passed: uploads then go to the bucket directly,
// not through docsd.
func (s *S3) PresignPut(ctx context.Context, key string, expires time.Duration) (string, error) {
	u, err := s.client.PresignedPutObject(ctx, s.bucket, s.prefix+key, expires)
	if err != nil {
		return "", fmt.Errorf("blob: presign %s: %w", key, err)
	}
	return u.String(), nil
}

// OpenKey reads the object a presigned URL uploaded under key: not found (404) when nothing
// was uploaded, too large (413) when it holds more than maxBytes, the size announced for it.
func (s *S3) OpenKey(ctx context.Context, key string, maxBytes int64) (io.ReadCloser, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, s.prefix+key, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.mapKeyErr(key, err)
	}
	st, err := obj.Stat()
	if err != nil {
		obj.Close()
		return nil, s.mapKeyErr(key, err)
	}
	if st.Size > maxBytes {
		obj.Close()
		return nil, tooLarge(maxBytes)
	}
	return obj, nil
}

func (s *S3) mapKeyErr(key string, err error) error {
	if minio.ToErrorResponse(err).StatusCode == http.StatusNotFound {
		return fmt.Errorf("%w: %w", ErrNotFound, apperr.NotFoundf("nothing was uploaded to %q", key))
	}
	return fmt.Errorf("blob: read %s: %w", key, err)
}
