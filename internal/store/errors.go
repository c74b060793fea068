package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned when a queried row does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrUniqueViolation is returned (wrapped) when an insert or update breaks a unique constraint.
var ErrUniqueViolation = errors.New("store: unique constraint violated")

// ErrForeignKeyViolation is returned (wrapped) when a reference points at no row.
var ErrForeignKeyViolation = errors.New("store: foreign key violated")

type constraintError struct {
	kind error
	err  error
}

func (e *constraintError) Error() string { return e.kind.Error() + ": " + e.err.Error() }
func (e *constraintError) Unwrap() []error {
	return []error{e.kind, e.err}
}

// mapErr classifies constraint violations by the engines' error codes, never by message text.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return &constraintError{ErrUniqueViolation, err}
		case "23503":
			return &constraintError{ErrForeignKeyViolation, err}
		}
		return err
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &constraintError{ErrUniqueViolation, err}
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return &constraintError{ErrForeignKeyViolation, err}
		}
	}
	return err
}
