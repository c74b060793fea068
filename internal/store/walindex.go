package store

import (
	"strings"
	"unsafe"
)

// walHeader is one copy of SQLite's wal-index header (WalIndexHdr in SQLite's wal.c), as
// 32-bit words in the machine's byte order: iVersion, unused, iChange, then isInit,
// bigEndCksum and szPage in one word, mxFrame, nPage, aFrameCksum[2], aSalt[2], aCksum[2].
// Every commit in WAL mode, by any connection of any process, adds one to iChange and rewrites
// the header before the commit returns; a WAL reset changes mxFrame and the salts. A header
// equal to one read earlier therefore means no commit happened in between. The wal-index
// begins with two copies of it.
type walHeader [12]uint32

const (
	walIndexHdrBytes   = 2 * 48
	walIndexMaxVersion = 3007000 // WALINDEX_MAX_VERSION
)

// valid reports whether h is an initialized header of the version this reading knows,
// with a correct checksum, as walIndexTryHdr requires before SQLite trusts a header.
func (h walHeader) valid() bool {
	isInit := (*[4]byte)(unsafe.Pointer(&h[3]))[0] // the byte at offset 12, whatever the byte order
	if h[0] != walIndexMaxVersion || isInit == 0 {
		return false
	}
	var s1, s2 uint32
	for i := 0; i < 10; i += 2 {
		s1 += h[i] + s2
		s2 += h[i+1] + s1
	}
	return s1 == h[10] && s2 == h[11]
}

// walIndexPath is where SQLite keeps the wal-index of the database file at path, or "" for a
// database without a file.
func walIndexPath(path string) string {
	if path == "" || strings.HasPrefix(path, ":memory:") {
		return ""
	}
	return path + "-shm"
}
