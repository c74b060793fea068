//go:build linux

package store

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// walIndex maps the first page of a SQLite database's wal-index (its -shm file) read-only, so
// that the generation check can read the wal-index header without SQLite's shared-memory
// locks (see generations.check for how the header is used, and walHeader for its layout).
type walIndex struct {
	path     string
	mem      []byte
	dev, ino uint64
}

// openWalIndex maps path, which must be the -shm file SQLite already has open for the
// database (the caller has read the database in WAL mode before).
func openWalIndex(path string) (*walIndex, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return nil, err
	}
	if st.Size < walIndexHdrBytes {
		return nil, fmt.Errorf("store: %s holds %d bytes, not a wal-index header", path, st.Size)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, os.Getpagesize(), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &walIndex{path: path, mem: mem, dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// header reads the header, or says why it cannot be trusted: ok is false while a writer is
// changing it, and err is set when the file is no longer the mapped one (removed, replaced or
// shrunk), after which the mapping says nothing about the database SQLite uses.
func (w *walIndex) header() (h walHeader, ok bool, err error) {
	var st syscall.Stat_t
	if err := syscall.Stat(w.path, &st); err != nil {
		return h, false, err
	}
	if uint64(st.Dev) != w.dev || uint64(st.Ino) != w.ino {
		return h, false, fmt.Errorf("store: %s was replaced", w.path)
	}
	if st.Size < walIndexHdrBytes {
		return h, false, fmt.Errorf("store: %s was truncated to %d bytes", w.path, st.Size)
	}
	// Reading a page the file no longer covers (truncated since the stat) faults: make that a
	// panic to recover from rather than the end of the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			h, ok, err = walHeader{}, false, fmt.Errorf("store: reading %s: %v", w.path, r)
		}
	}()
	// Atomic loads keep the order: the first copy wholly before the second, as SQLite's own
	// readers do (walIndexTryHdr) against its writers, which store the second copy first.
	var second walHeader
	for i := range h {
		h[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
	for i := range second {
		second[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[walIndexHdrBytes/2+4*i])))
	}
	return h, h == second && h.valid(), nil
}

func (w *walIndex) close() {
	syscall.Munmap(w.mem)
	w.mem = nil
}
