package config

import (
	"fmt"
	"strings"
)

// BlobS3 puts file bytes in an S3-compatible store instead of DataDir/blobs, so several docsd
// processes can share them. An empty Bucket means the local directory.
type BlobS3 struct {
	Endpoint  string // host[:port], no scheme
	Bucket    string
	Prefix    string // key prefix inside the bucket
	Region    string
	AccessKey string // environment only, so it never shows in a process listing
	SecretKey string // environment only
	UseTLS    bool   // https to the endpoint (default true)
	PathStyle bool   // endpoint/bucket/key addressing, which most self-hosted stores want
}

func (f *Flags) addBlobFlags(env func(key, def string) string) {
	fs, b := f.FlagSet, &f.cfg.BlobS3
	fs.StringVar(&b.Endpoint, "blob-s3-endpoint", env("DOCSD_BLOB_S3_ENDPOINT", ""), "S3-compatible endpoint host[:port] for file bytes (DOCSD_BLOB_S3_ENDPOINT)")
	fs.StringVar(&b.Bucket, "blob-s3-bucket", env("DOCSD_BLOB_S3_BUCKET", ""), "bucket for file bytes; empty keeps them in the data directory; keys come from DOCSD_BLOB_S3_ACCESS_KEY and DOCSD_BLOB_S3_SECRET_KEY (DOCSD_BLOB_S3_BUCKET)")
	fs.StringVar(&b.Prefix, "blob-s3-prefix", env("DOCSD_BLOB_S3_PREFIX", ""), "key prefix inside the bucket (DOCSD_BLOB_S3_PREFIX)")
	fs.StringVar(&b.Region, "blob-s3-region", env("DOCSD_BLOB_S3_REGION", ""), "bucket region; empty asks the store (DOCSD_BLOB_S3_REGION)")
	f.boolVar(&b.UseTLS, "blob-s3-use-tls", "DOCSD_BLOB_S3_USE_TLS", "use https to the S3 endpoint; --blob-s3-use-tls=false for http (DOCSD_BLOB_S3_USE_TLS)")
	f.boolVar(&b.PathStyle, "blob-s3-path-style", "DOCSD_BLOB_S3_PATH_STYLE", "address buckets as endpoint/bucket (DOCSD_BLOB_S3_PATH_STYLE)")
	b.AccessKey = f.getenv("DOCSD_BLOB_S3_ACCESS_KEY")
	b.SecretKey = f.getenv("DOCSD_BLOB_S3_SECRET_KEY")
}

// parseBlob validates the S3 settings.
func (f *Flags) parseBlob() error {
	b := &f.cfg.BlobS3
	if b.Bucket == "" {
		if b.Endpoint != "" {
			return fmt.Errorf("blob-s3-bucket: required with blob-s3-endpoint")
		}
		return nil
	}
	if b.Endpoint == "" {
		return fmt.Errorf("blob-s3-endpoint: required with blob-s3-bucket (for AWS: s3.amazonaws.com)")
	}
	if strings.Contains(b.Endpoint, "/") {
		return fmt.Errorf("blob-s3-endpoint %q: must be host[:port], without scheme or path (https is blob-s3-use-tls)", b.Endpoint)
	}
	if b.AccessKey == "" || b.SecretKey == "" {
		return fmt.Errorf("DOCSD_BLOB_S3_ACCESS_KEY and DOCSD_BLOB_S3_SECRET_KEY: both required with blob-s3-bucket")
	}
	return nil
}

// redacted shows the S3 settings without the secret key.
func (b BlobS3) redacted() map[string]any {
	secret := ""
	if b.SecretKey != "" {
		secret = "REDACTED"
	}
	return map[string]any{
		"endpoint": b.Endpoint, "bucket": b.Bucket, "prefix": b.Prefix, "region": b.Region,
		"accessKey": b.AccessKey, "secretKey": secret, "useTLS": b.UseTLS, "pathStyle": b.PathStyle,
	}
}
