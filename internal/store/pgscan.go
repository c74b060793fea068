package store

import (
	"database/sql"
	"fmt"
	"reflect"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgScan scans the current row of pgx rows (a PostgreSQL write's reads, pgwrite.go) into
// dest. pgx plans the scan of every column afresh for each statement, and for a destination
// of a named string or integer type (space.Visibility, site.Visibility, ...) that plan looks
// for the type's underlying type by reflection, then converts through it on every row: 1.6%
// of a title PATCH's CPU on PostgreSQL, for the three such columns its reads scan. Those
// columns are scanned into a plain string or int64 here and set after, which is what pgx's
// plan amounts to. A destination that scans itself (sql.Scanner, pgx's text and integer
// scanners) is left to pgx.
func pgScan(rows pgx.Rows, dest []any) error {
	plain := dest
	var named []int
	for i, d := range dest {
		switch d.(type) {
		case *string, *int64, *int, *bool, *[]byte, *sql.NullString, *sql.NullInt64, *sql.NullBool:
			continue
		case sql.Scanner, pgtype.TextScanner, pgtype.Int64Scanner:
			continue
		}
		v := reflect.ValueOf(d)
		if v.Kind() != reflect.Pointer || v.IsNil() {
			continue
		}
		var tmp any
		switch v.Elem().Kind() {
		case reflect.String:
			tmp = new(string)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			tmp = new(int64)
		default:
			continue
		}
		if named == nil {
			plain = append([]any(nil), dest...)
		}
		plain[i] = tmp
		named = append(named, i)
	}
	if err := rows.Scan(plain...); err != nil {
		return err
	}
	for _, i := range named {
		elem := reflect.ValueOf(dest[i]).Elem()
		switch tmp := plain[i].(type) {
		case *string:
			elem.SetString(*tmp)
		case *int64:
			if elem.OverflowInt(*tmp) {
				return fmt.Errorf("store: column %d: %d overflows %s", i, *tmp, elem.Type())
			}
			elem.SetInt(*tmp)
		}
	}
	return nil
}
