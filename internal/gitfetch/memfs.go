package gitfetch

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// memFS is a read-only file system of the files of one tree, held in memory. Directories are
// implied by the files' paths, as in Git, which has no empty directories.
type memFS struct {
	files map[string]*memEntry // by slash path, without a leading slash
	dirs  map[string]*memEntry // "." is the root
}

type memEntry struct {
	name    string
	data    []byte // nil for directories
	mode    fs.FileMode
	modTime time.Time
	entries []fs.DirEntry // for directories, sorted by name
}

func (e *memEntry) Name() string       { return e.name }
func (e *memEntry) Size() int64        { return int64(len(e.data)) }
func (e *memEntry) Mode() fs.FileMode  { return e.mode }
func (e *memEntry) ModTime() time.Time { return e.modTime }
func (e *memEntry) IsDir() bool        { return e.mode.IsDir() }
func (e *memEntry) Sys() any           { return nil }

// newMemFS builds the file system; every file gets modTime (the commit's time), as Git keeps no
// per-file times.
func newMemFS(files map[string][]byte, executable map[string]bool, modTime time.Time) *memFS {
	m := &memFS{files: map[string]*memEntry{}, dirs: map[string]*memEntry{}}
	m.dirs["."] = &memEntry{name: ".", mode: fs.ModeDir | 0o555, modTime: modTime}
	for p, data := range files {
		mode := fs.FileMode(0o444)
		if executable[p] {
			mode = 0o555
		}
		if data == nil {
			data = []byte{}
		}
		e := &memEntry{name: path.Base(p), data: data, mode: mode, modTime: modTime}
		m.files[p] = e
		m.addToParent(p, e, modTime)
	}
	for _, d := range m.dirs {
		sort.Slice(d.entries, func(i, j int) bool { return d.entries[i].Name() < d.entries[j].Name() })
	}
	return m
}

// addToParent lists e in its parent directory, creating the parents it needs.
func (m *memFS) addToParent(p string, e *memEntry, modTime time.Time) {
	dir := path.Dir(p)
	parent, ok := m.dirs[dir]
	if !ok {
		parent = &memEntry{name: path.Base(dir), mode: fs.ModeDir | 0o555, modTime: modTime}
		m.dirs[dir] = parent
		m.addToParent(dir, parent, modTime)
	}
	parent.entries = append(parent.entries, fs.FileInfoToDirEntry(e))
}

func (m *memFS) lookup(op, name string) (*memEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if e, ok := m.files[name]; ok {
		return e, nil
	}
	if e, ok := m.dirs[name]; ok {
		return e, nil
	}
	return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

func (m *memFS) Open(name string) (fs.File, error) {
	e, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if e.IsDir() {
		return &memDir{entry: e, path: name}, nil
	}
	return &memFile{entry: e, r: bytes.NewReader(e.data)}, nil
}

// ReadFile returns a copy, so callers cannot change the tree.
func (m *memFS) ReadFile(name string) ([]byte, error) {
	e, err := m.lookup("readfile", name)
	if err != nil {
		return nil, err
	}
	if e.IsDir() {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	return append([]byte(nil), e.data...), nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := m.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !e.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return append([]fs.DirEntry(nil), e.entries...), nil
}

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	return m.lookup("stat", name)
}

type memFile struct {
	entry *memEntry
	r     *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error)                { return f.entry, nil }
func (f *memFile) Read(p []byte) (int, error)                { return f.r.Read(p) }
func (f *memFile) Seek(off int64, whence int) (int64, error) { return f.r.Seek(off, whence) }
func (f *memFile) ReadAt(p []byte, off int64) (int, error)   { return f.r.ReadAt(p, off) }
func (f *memFile) Close() error                              { return nil }

type memDir struct {
	entry  *memEntry
	path   string
	offset int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.entry, nil }
func (d *memDir) Close() error               { return nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: fs.ErrInvalid}
}

// ReadDir follows fs.ReadDirFile: n > 0 pages through the entries and ends with io.EOF; n <= 0
// returns all that remain.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entry.entries[d.offset:]
	if n <= 0 {
		d.offset += len(rest)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.offset += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}
