//go:build !linux

package store

import "errors"

// walIndex is Linux-only; elsewhere every generation check asks SQLite (PRAGMA data_version).
type walIndex struct{}

func openWalIndex(string) (*walIndex, error) {
	return nil, errors.New("store: reading the wal-index directly is implemented on Linux only")
}

func (*walIndex) header() (walHeader, bool, error) {
	return walHeader{}, false, errors.New("store: no wal-index mapping")
}

func (*walIndex) close() {}
