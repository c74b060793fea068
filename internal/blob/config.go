package blob

import (
	"path/filepath"

	"docsd/internal/config"
)

// FromConfig opens the store the configuration names: the S3-compatible bucket when one is
// set, otherwise the folder blobs/ in the data directory.
func FromConfig(cfg config.Config) (Store, error) {
	s3 := cfg.BlobS3
	if s3.Bucket == "" {
		return NewLocal(filepath.Join(cfg.DataDir, "blobs"))
	}
	return NewS3(S3Options{
		Endpoint:  s3.Endpoint,
		UseTLS:    s3.UseTLS,
		Region:    s3.Region,
		Bucket:    s3.Bucket,
		Prefix:    s3.Prefix,
		AccessKey: s3.AccessKey,
		SecretKey: s3.SecretKey,
		PathStyle: s3.PathStyle,
	})
}
