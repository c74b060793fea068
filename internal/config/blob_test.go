package config_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"docsd/internal/config"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestBlobS3FromEnvironment(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", nil, envOf(map[string]string{
		"DOCSD_BLOB_S3_ENDPOINT":   "minio.internal:9000",
		"DOCSD_BLOB_S3_BUCKET":     "docs",
		"DOCSD_BLOB_S3_PREFIX":     "prod/",
		"DOCSD_BLOB_S3_REGION":     "eu-west-1",
		"DOCSD_BLOB_S3_ACCESS_KEY": "AKIDEXAMPLE",
		"DOCSD_BLOB_S3_SECRET_KEY": "wJalrXUtnFEMI",
		"DOCSD_BLOB_S3_USE_TLS":    "false",
		"DOCSD_BLOB_S3_PATH_STYLE": "true",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config.BlobS3{Endpoint: "minio.internal:9000", Bucket: "docs", Prefix: "prod/", Region: "eu-west-1",
		AccessKey: "AKIDEXAMPLE", SecretKey: "wJalrXUtnFEMI", UseTLS: false, PathStyle: true}
	if cfg.BlobS3 != want {
		t.Fatalf("BlobS3 = %+v, want %+v", cfg.BlobS3, want)
	}

	red := fmt.Sprint(cfg.Redacted())
	if strings.Contains(red, "wJalrXUtnFEMI") || !strings.Contains(red, "REDACTED") || !strings.Contains(red, "minio.internal:9000") {
		t.Fatalf("Redacted() = %s: want the endpoint shown and the secret hidden", red)
	}
}

func TestBlobS3Defaults(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", nil, envOf(nil), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BlobS3 != (config.BlobS3{UseTLS: true}) {
		t.Fatalf("BlobS3 = %+v, want no bucket and TLS on", cfg.BlobS3)
	}
	if cfg.BlobS3 != config.Defaults().BlobS3 {
		t.Fatalf("parsed defaults %+v differ from Defaults() %+v", cfg.BlobS3, config.Defaults().BlobS3)
	}
}

func TestBlobS3FlagsWinOverEnvironment(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("docsd", []string{"-blob-s3-bucket", "from-flag", "-blob-s3-use-tls=false"}, envOf(map[string]string{
		"DOCSD_BLOB_S3_ENDPOINT": "s3.amazonaws.com", "DOCSD_BLOB_S3_BUCKET": "from-env",
		"DOCSD_BLOB_S3_ACCESS_KEY": "a", "DOCSD_BLOB_S3_SECRET_KEY": "s",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BlobS3.Bucket != "from-flag" || cfg.BlobS3.UseTLS {
		t.Fatalf("BlobS3 = %+v", cfg.BlobS3)
	}
}

func TestBlobS3Invalid(t *testing.T) {
	t.Parallel()
	full := map[string]string{
		"DOCSD_BLOB_S3_ENDPOINT": "s3.amazonaws.com", "DOCSD_BLOB_S3_BUCKET": "docs",
		"DOCSD_BLOB_S3_ACCESS_KEY": "a", "DOCSD_BLOB_S3_SECRET_KEY": "s",
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for key, val := range full {
			m[key] = val
		}
		m[k] = v
		return m
	}
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"endpoint without bucket", map[string]string{"DOCSD_BLOB_S3_ENDPOINT": "s3.amazonaws.com"}, "blob-s3-bucket: required"},
		{"bucket without endpoint", with("DOCSD_BLOB_S3_ENDPOINT", ""), "blob-s3-endpoint: required"},
		{"endpoint with scheme", with("DOCSD_BLOB_S3_ENDPOINT", "https://s3.amazonaws.com"), "must be host[:port]"},
		{"missing secret key", with("DOCSD_BLOB_S3_SECRET_KEY", ""), "DOCSD_BLOB_S3_SECRET_KEY"},
		{"missing access key", with("DOCSD_BLOB_S3_ACCESS_KEY", ""), "DOCSD_BLOB_S3_ACCESS_KEY"},
		{"use-tls not a boolean", with("DOCSD_BLOB_S3_USE_TLS", "maybe"), "blob-s3-use-tls"},
		{"path-style not a boolean", with("DOCSD_BLOB_S3_PATH_STYLE", "yes please"), "blob-s3-path-style"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := config.Load("docsd", nil, envOf(tc.env), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := config.Load("docsd", nil, envOf(full), io.Discard); err != nil {
		t.Fatalf("complete settings refused: %v", err)
	}
}
