package store

import (
	"database/sql"
	"time"
)

// Micros is how times are stored: microseconds since the Unix epoch.
func Micros(t time.Time) int64 { return t.UTC().UnixMicro() }

// FromMicros turns a stored time back into a UTC time.
func FromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// NullMicros stores an optional time.
func NullMicros(t *time.Time) any {
	if t == nil {
		return nil
	}
	return Micros(*t)
}

// TimePtr reads an optional stored time.
func TimePtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := FromMicros(v.Int64)
	return &t
}

// StrPtr reads an optional stored string.
func StrPtr(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	s := v.String
	return &s
}

// NullStr stores an optional string.
func NullStr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
