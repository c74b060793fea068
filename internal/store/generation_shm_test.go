//go:build linux

package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"docsd/internal/store"
)

// The generation check reads the wal-index header from the -shm file instead of asking SQLite
// when it can (Linux). These tests change the database from another process, the way the
// admin commands and a second docsd on the same file do, and require the next check in this
// process to see it.

// genHelperEnv makes the test binary, started by runGenHelper, act as that other process.
const genHelperEnv = "DOCSD_TEST_GENERATION_HELPER"

// TestGenerationHelperProcess is the other process: it does nothing in a normal test run.
func TestGenerationHelperProcess(t *testing.T) {
	action := os.Getenv(genHelperEnv)
	if action == "" {
		return
	}
	if err := genHelper(action, os.Getenv("DOCSD_TEST_GENERATION_DB")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// genHelper runs one action on the database at path through plain SQLite connections:
// "write:N" commits N times, "truncate" checkpoints and resets the WAL, "write-truncate-write"
// commits on both sides of a reset.
func genHelper(action, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	write := func(v string) error {
		_, err := db.Exec(`INSERT INTO server_settings (name, value) VALUES ('g', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, v)
		return err
	}
	truncate := func() error {
		var busy, logFrames, done int
		if err := db.QueryRow(`PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
			return err
		}
		if busy != 0 {
			return fmt.Errorf("wal_checkpoint(TRUNCATE) was blocked")
		}
		return nil
	}
	switch {
	case action == "dms-locked":
		return requireDMSLocked(path + "-shm")
	case action == "truncate":
		return truncate()
	case action == "write-truncate-write":
		if err := write("before reset"); err != nil {
			return err
		}
		if err := truncate(); err != nil {
			return err
		}
		return write("after reset")
	default:
		n, err := strconv.Atoi(action[len("write:"):])
		if err != nil {
			return err
		}
		for i := range n {
			if i == n/2 {
				if err := truncate(); err != nil {
					return err
				}
			}
			if err := write("remote " + strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return nil
	}
}

// requireDMSLocked fails unless another process holds a lock on the -shm file's DMS byte:
// the lock by which SQLite tells processes opening the database that the file is in use and
// must not be reset (unixLockSharedMemory in SQLite's os_unix.c; byte 128 = UNIX_SHM_DMS).
// F_GETLK reports other processes' locks only, so this runs in the helper.
func requireDMSLocked(shm string) error {
	if runtime.GOOS != "linux" {
		return nil
	}
	f, err := os.OpenFile(shm, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 128, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return err
	}
	if lk.Type == syscall.F_UNLCK {
		return fmt.Errorf("no process holds a lock on the DMS byte of %s: SQLite's shared-memory locks were dropped", shm)
	}
	return nil
}

// runGenHelper runs action in another process of the test binary and waits for it.
func runGenHelper(t *testing.T, path, action string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGenerationHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), genHelperEnv+"="+action, "DOCSD_TEST_GENERATION_DB="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process %q: %v\n%s", action, err, out)
	}
}

// genFixture is a migrated database, this process's handle on it, and the last generation.
type genFixture struct {
	t    *testing.T
	ctx  context.Context
	path string
	db   *store.DB
	gen  uint64
}

func newGenFixture(t *testing.T) *genFixture {
	f := &genFixture{t: t, ctx: context.Background(), path: filepath.Join(t.TempDir(), "docsd.db")}
	db, err := store.Open(f.ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.db = db
	f.gen = f.check()
	f.check() // the first check maps the wal-index, the second records its header
	f.requireHeaderChecks()
	return f
}

func (f *genFixture) check() uint64 {
	f.t.Helper()
	g, err := f.db.Generation(f.ctx, time.Now(), 1)
	if err != nil {
		f.t.Fatal(err)
	}
	return g
}

// requireHeaderChecks asserts that on Linux an idle database is checked without the pragma,
// so that the tests around it exercise the header reading and not only the pragma.
func (f *genFixture) requireHeaderChecks() {
	f.t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	before := f.db.GenerationPragmas()
	for range 3 {
		if g := f.check(); g != f.gen {
			f.t.Fatalf("generation moved without a write: %d then %d", f.gen, g)
		}
	}
	if n := f.db.GenerationPragmas() - before; n != 0 {
		f.t.Fatalf("%d of 3 checks of an unchanged database ran the pragma, want none", n)
	}
}

// requireChange asserts that the next check moves the generation and that a read then sees want.
func (f *genFixture) requireChange(what, want string) {
	f.t.Helper()
	g := f.check()
	if g == f.gen {
		f.t.Fatalf("%s: the generation did not change (%d)", what, g)
	}
	f.gen = g
	var v string
	if err := f.db.Read().QueryRow(f.ctx, `SELECT value FROM server_settings WHERE name = 'g'`).Scan(&v); err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
	if v != want {
		f.t.Fatalf("%s: read %q, want %q", what, v, want)
	}
}

// remoteChange runs action in another process, then requires the next check to see it (a read
// then finding want) and the checks after it to go without the pragma again.
func (f *genFixture) remoteChange(action, what, want string) {
	f.t.Helper()
	runGenHelper(f.t, f.path, action)
	f.requireChange(what, want)
	f.requireHeaderChecks()
}

func TestGenerationSeesAnotherProcessCommit(t *testing.T) {
	f := newGenFixture(t)
	f.remoteChange("write:1", "a commit by another process", "remote 0")
	f.remoteChange("write:1", "a second identical-looking commit by another process", "remote 0")
}

func TestGenerationSeesCommitsAcrossAnotherProcessWALReset(t *testing.T) {
	f := newGenFixture(t)
	f.remoteChange("write-truncate-write", "commits around a WAL reset by another process", "after reset")
	// A reset alone changes no data, but a commit after it restarts the WAL from frame one:
	// the header must still differ from the one seen before.
	runGenHelper(t, f.path, "truncate")
	f.check()
	f.gen = f.check()
	f.requireHeaderChecks()
	f.remoteChange("write:1", "a commit after another process reset the WAL", "remote 0")
}

func TestGenerationSeesManyCommitsBetweenChecks(t *testing.T) {
	f := newGenFixture(t)
	f.remoteChange("write:300", "300 commits by another process", "remote 299") // with a WAL reset half way
}

// Closing one of a process's handles on a database must leave SQLite's shared-memory locks of
// the others in place: closing any descriptor of the -shm file would drop them all, and
// another process opening the database would then take the -shm as abandoned and reset it
// under the handle still open (which then faults reading its mapping).
func TestGenerationClosingOneHandleKeepsTheOthersLocks(t *testing.T) {
	before := store.SharedMemoryDescriptors()
	f := newGenFixture(t)
	second, err := store.Open(f.ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the first check maps the wal-index
		if _, err := second.Generation(f.ctx, time.Now(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "linux" && store.SharedMemoryDescriptors() < before+2 {
		t.Fatalf("%d descriptors of -shm files open, want at least %d", store.SharedMemoryDescriptors(), before+2)
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	runGenHelper(t, f.path, "dms-locked")
	for i := range 3 {
		f.remoteChange("write:1", fmt.Sprintf("commit %d by another process after the second handle closed", i), "remote 0")
	}
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	if n := store.SharedMemoryDescriptors(); n != before {
		t.Fatalf("%d descriptors of -shm files open after both handles closed, want %d", n, before)
	}
}
