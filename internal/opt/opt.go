// Package opt distinguishes, in update bodies, a field that is absent (leave it unchanged)
// from one that is null (remove it) and one that holds a value (set it).
package opt

import (
	"bytes"
	"encoding/json"
)

// Field is an optional, nullable value decoded from JSON.
type Field[T any] struct {
	Set   bool // the field was present in the body
	Null  bool // the field was present and null
	Value T    // the value, when present and not null
}

// Of returns a Field holding v.
func Of[T any](v T) Field[T] { return Field[T]{Set: true, Value: v} }

// Null returns a Field that was given as null.
func Null[T any]() Field[T] { return Field[T]{Set: true, Null: true} }

// UnmarshalJSON records presence and nullness; encoding/json calls it only for present fields.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		f.Null = true
		var zero T
		f.Value = zero
		return nil
	}
	f.Null = false
	return json.Unmarshal(b, &f.Value)
}

// Ptr returns the value as a pointer: nil when absent or null.
func (f Field[T]) Ptr() *T {
	if !f.Set || f.Null {
		return nil
	}
	v := f.Value
	return &v
}
