package blob

// SetSinglePutMax lowers the size above which S3 uploads go in parts, so tests reach that
// path without gigabytes.
func SetSinglePutMax(s *S3, n int64) { s.singlePutMax = n }
