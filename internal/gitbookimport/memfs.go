package gitbookimport

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

// memFS is a read-only file system in memory: what an archive unpacks to once its entries
// have passed the limits.
type memFS struct {
	entries map[string]*memEntry // by cleaned path; "." is the root directory
}

type memEntry struct {
	name     string
	data     []byte
	dir      bool
	modTime  time.Time
	children []string // names, sorted, for directories
}

func newMemFS() *memFS {
	return &memFS{entries: map[string]*memEntry{".": {name: ".", dir: true}}}
}

// mkdirAll makes dir and its parents; it fails if one of them is a file.
func (m *memFS) mkdirAll(dir string) bool {
	if e, ok := m.entries[dir]; ok {
		return e.dir
	}
	parent := path.Dir(dir)
	if !m.mkdirAll(parent) {
		return false
	}
	m.entries[dir] = &memEntry{name: path.Base(dir), dir: true}
	p := m.entries[parent]
	p.children = insertSorted(p.children, path.Base(dir))
	return true
}

// addFile stores a file, replacing an earlier file of the same path (as extracting an
// archive does); it fails if the path or one of its parents is a directory.
func (m *memFS) addFile(name string, data []byte, modTime time.Time) bool {
	if e, ok := m.entries[name]; ok {
		if e.dir {
			return false
		}
		e.data, e.modTime = data, modTime
		return true
	}
	if !m.mkdirAll(path.Dir(name)) {
		return false
	}
	m.entries[name] = &memEntry{name: path.Base(name), data: data, modTime: modTime}
	p := m.entries[path.Dir(name)]
	p.children = insertSorted(p.children, path.Base(name))
	return true
}

func insertSorted(names []string, name string) []string {
	i, found := slices.BinarySearch(names, name)
	if found {
		return names
	}
	return slices.Insert(names, i, name)
}

func (m *memFS) lookup(op, name string) (*memEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	e, ok := m.entries[name]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return e, nil
}

func (m *memFS) Open(name string) (fs.File, error) {
	e, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if e.dir {
		entries, _ := m.ReadDir(name)
		return &memDir{info: memInfo{e}, entries: entries}, nil
	}
	return &memFile{info: memInfo{e}, r: bytes.NewReader(e.data)}, nil
}

func (m *memFS) ReadFile(name string) ([]byte, error) {
	e, err := m.lookup("read", name)
	if err != nil {
		return nil, err
	}
	if e.dir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	return slices.Clone(e.data), nil
}

func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	e, err := m.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return memInfo{e}, nil
}

func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := m.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !e.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	out := make([]fs.DirEntry, 0, len(e.children))
	for _, c := range e.children {
		out = append(out, fs.FileInfoToDirEntry(memInfo{m.entries[path.Join(name, c)]}))
	}
	return out, nil
}

type memInfo struct{ e *memEntry }

func (i memInfo) Name() string       { return i.e.name }
func (i memInfo) Size() int64        { return int64(len(i.e.data)) }
func (i memInfo) ModTime() time.Time { return i.e.modTime }
func (i memInfo) IsDir() bool        { return i.e.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.e.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	info    memInfo
	entries []fs.DirEntry
	offset  int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: fs.ErrInvalid}
}
func (d *memDir) Close() error { return nil }

// ReadDir follows fs.ReadDirFile: n <= 0 returns the rest; n > 0 at most n, io.EOF at the end.
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.offset:]
	if n <= 0 {
		d.offset = len(d.entries)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.offset += n
	return rest[:n], nil
}

var _ interface {
	fs.ReadFileFS
	fs.ReadDirFS
	fs.StatFS
} = (*memFS)(nil)
