//go:build !linux

package store

import "errors"

// walIndex is Linux-only; elsewhere every generation check asks SQLite (PRAGMA data_version).
type walIndex struct{}

type shmFileID struct{}

func openWalIndex(string) (*walIndex, shmFileID, bool, error) {
	return nil, shmFileID{}, false, errors.New("store: reading the wal-index directly is implemented on Linux only")
}

func releaseShmFile(shmFileID) {}

func shmDescriptors() int { return 0 }

func (*walIndex) header() (walHeader, bool) { return walHeader{}, false }

func (*walIndex) unmap() {}
