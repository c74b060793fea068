//go:build linux

package store

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// walIndex maps the first page of a SQLite database's wal-index (its -shm file) read-only, so
// that the generation check can read the wal-index header without SQLite's shared-memory
// locks (see generations.fastCheck for how the header is used, and walHeader for its layout).
type walIndex struct {
	mem []byte
}

// shmFileID names a -shm file by device and inode: the same file whatever path reached it.
type shmFileID struct{ dev, ino uint64 }

// Closing any descriptor of a file drops every POSIX lock the process holds on that file, and
// SQLite's shared-memory locks on the -shm file are POSIX locks (one of them tells other
// processes that the file is in use and must not be reset). So a descriptor opened here on a
// -shm file is never closed while SQLite may hold locks on it in this process: each DB that
// mapped the file holds a reference, dropped by DB.Close once its own connections are
// closed, and the descriptors close with the last reference. Other DBs of the process on the
// same file keep theirs.
var shmFiles = struct {
	sync.Mutex
	open map[shmFileID]*shmFile
}{open: map[shmFileID]*shmFile{}}

type shmFile struct {
	fds  []int
	refs int
}

// openWalIndex maps the -shm file at path. The caller has read the database in WAL mode on a
// connection it keeps open, so SQLite has that very file open and neither deletes nor resets
// it while the connection lives (a connection in WAL mode holds a shared lock on the database
// file, and its process a lock on the -shm file, both of which those need). The returned
// file id must be passed to releaseShmFile once the DB's connections are closed, even when
// err is set.
func openWalIndex(path string) (*walIndex, shmFileID, bool, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, shmFileID{}, false, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		// Not registered, so nothing else would ever close it: keeping it open costs one
		// descriptor, and closing it could drop SQLite's locks.
		return nil, shmFileID{}, false, err
	}
	id := shmFileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	shmFiles.Lock()
	f := shmFiles.open[id]
	if f == nil {
		f = &shmFile{}
		shmFiles.open[id] = f
	}
	f.fds = append(f.fds, fd)
	f.refs++
	shmFiles.Unlock()
	if st.Size < 32<<10 { // SQLite sizes a wal-index in 32 KiB regions from the start
		return nil, id, true, fmt.Errorf("store: %s holds %d bytes, not an initialized wal-index", path, st.Size)
	}
	mem, err := unix.Mmap(fd, 0, os.Getpagesize(), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, id, true, err
	}
	return &walIndex{mem: mem}, id, true, nil
}

// releaseShmFile drops a reference taken by openWalIndex, closing the file's descriptors with
// the last one.
func releaseShmFile(id shmFileID) {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	f := shmFiles.open[id]
	if f == nil {
		return
	}
	if f.refs--; f.refs > 0 {
		return
	}
	for _, fd := range f.fds {
		unix.Close(fd)
	}
	delete(shmFiles.open, id)
}

// shmDescriptors is how many descriptors of -shm files the process holds, for tests.
func shmDescriptors() int {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	n := 0
	for _, f := range shmFiles.open {
		n += len(f.fds)
	}
	return n
}

// header reads the header; ok is false while a writer is changing it or when the mapping
// cannot be read, and then the caller asks SQLite.
func (w *walIndex) header() (h walHeader, ok bool) {
	// The file cannot shrink while SQLite has it open here (see openWalIndex), but a fault
	// reading a page it no longer covers is made a panic to recover from rather than the end
	// of the process.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			h, ok = walHeader{}, false
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
	return h, h == second && h.valid()
}

// unmap removes the mapping; the descriptor stays (see shmFiles).
func (w *walIndex) unmap() {
	unix.Munmap(w.mem)
	w.mem = nil
}
