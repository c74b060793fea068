package gitbookimport_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/gitbookimport"
)

// entry is one member of a test archive.
type entry struct {
	name string
	data string
	kind byte // tar type flag: tar.TypeReg, tar.TypeDir, tar.TypeSymlink, tar.TypeLink
	link string
}

func file(name, data string) entry { return entry{name: name, data: data, kind: tar.TypeReg} }
func dir(name string) entry        { return entry{name: name, kind: tar.TypeDir} }
func symlink(name, target string) entry {
	return entry{name: name, kind: tar.TypeSymlink, link: target}
}

var modTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func makeZip(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: modTime}
		data := e.data
		switch e.kind {
		case tar.TypeDir:
			h.SetMode(fs.ModeDir | 0o755)
		case tar.TypeSymlink:
			h.SetMode(fs.ModeSymlink | 0o777)
			data = e.link
		default:
			h.SetMode(0o644)
		}
		fw, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func makeTar(t *testing.T, gz bool, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w *tar.Writer
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		w = tar.NewWriter(zw)
	} else {
		w = tar.NewWriter(&buf)
	}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.kind, Linkname: e.link, Mode: 0o644, ModTime: modTime}
		if e.kind == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.kind == tar.TypeReg {
			if _, err := w.Write([]byte(e.data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// reader reads an archive in each of the formats.
type reader struct {
	name string
	read func(t *testing.T, l gitbookimport.Limits, entries ...entry) (fs.FS, error)
}

var readers = []reader{
	{"zip", func(t *testing.T, l gitbookimport.Limits, entries ...entry) (fs.FS, error) {
		b := makeZip(t, entries...)
		return l.FromZip(bytes.NewReader(b), int64(len(b)))
	}},
	{"tar", func(t *testing.T, l gitbookimport.Limits, entries ...entry) (fs.FS, error) {
		return l.FromTar(bytes.NewReader(makeTar(t, false, entries...)))
	}},
	{"tar.gz", func(t *testing.T, l gitbookimport.Limits, entries ...entry) (fs.FS, error) {
		return l.FromTar(bytes.NewReader(makeTar(t, true, entries...)))
	}},
}

func TestArchivesUnpack(t *testing.T) {
	t.Parallel()
	entries := []entry{
		dir("docs/"),
		file("docs/README.md", "# Home"),
		file("./docs/guide/setup.md", "# Setup"),
		file(`docs\windows\page.md`, "# From Windows"),
		file("docs/.gitbook/assets/a.png", "\x89PNG"),
		file("docs/empty.md", ""),
		symlink("docs/link.md", "/etc/passwd"),
		symlink("docs/up", "../.."),
	}
	for _, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			fsys, err := r.read(t, gitbookimport.DefaultLimits, entries...)
			if err != nil {
				t.Fatal(err)
			}
			// The file system behaves as io/fs requires, holds exactly the regular files and
			// their directories, and no links.
			if err := fstest.TestFS(fsys, "docs/README.md", "docs/guide/setup.md", "docs/windows/page.md", "docs/.gitbook/assets/a.png", "docs/empty.md"); err != nil {
				t.Fatal(err)
			}
			for _, gone := range []string{"docs/link.md", "docs/up"} {
				if _, err := fs.Stat(fsys, gone); err == nil {
					t.Errorf("%s: a link was unpacked", gone)
				}
			}
			data, err := fs.ReadFile(fsys, "docs/guide/setup.md")
			if err != nil || string(data) != "# Setup" {
				t.Errorf("content: %q, %v", data, err)
			}
			info, _ := fs.Stat(fsys, "docs/README.md")
			if !info.ModTime().Equal(modTime) {
				t.Errorf("modification time %v", info.ModTime())
			}
		})
	}
}

func TestArchivesRefusePathsLeavingTheRoot(t *testing.T) {
	t.Parallel()
	// Tar cannot even encode a NUL in a name; zip can.
	cases := []struct{ name, entry, message string }{
		{"parent directory", "../evil.md", `entry "../evil.md": has a path climbing out with ".."`},
		{"parent inside a path", "docs/../../evil.md", `has a path climbing out with ".."`},
		{"parent with backslashes", `docs\..\..\evil.md`, `has a path climbing out with ".."`},
		{"absolute path", "/etc/cron.d/evil", `entry "/etc/cron.d/evil": has an absolute path`},
		{"Windows drive", `C:\evil.md`, "has an absolute path"},
		{"NUL", "a\x00b.md", "has a NUL character"},
	}
	for _, r := range readers {
		for _, tc := range cases {
			if strings.Contains(tc.entry, "\x00") && r.name != "zip" {
				continue
			}
			t.Run(r.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				_, err := r.read(t, gitbookimport.DefaultLimits, file("README.md", "# ok"), file(tc.entry, "x"))
				expectError(t, err, apperr.Invalid, tc.message)
			})
		}
	}
}

func TestArchiveLimits(t *testing.T) {
	t.Parallel()
	limits := gitbookimport.Limits{MaxEntries: 4, MaxFileBytes: 10, MaxTotalBytes: 25}
	cases := []struct {
		name    string
		entries []entry
		message string // empty: within the limits
	}{
		{"entries at the limit", []entry{dir("d/"), file("d/a", "1"), file("d/b", "2"), symlink("d/c", "a")}, ""},
		{"entries beyond the limit", []entry{dir("d/"), file("d/a", "1"), file("d/b", "2"), symlink("d/c", "a"), file("d/e", "")}, "holds more than 4 entries (the limit)"},
		{"a file at the limit", []entry{file("a", strings.Repeat("x", 10))}, ""},
		{"a file beyond the limit", []entry{file("a", strings.Repeat("x", 11))}, "a: exceeds 10 bytes (the limit for one file)"},
		{"content at the limit", []entry{file("a", strings.Repeat("x", 10)), file("b", strings.Repeat("x", 10)), file("c", strings.Repeat("x", 5))}, ""},
		{"content beyond the limit", []entry{file("a", strings.Repeat("x", 10)), file("b", strings.Repeat("x", 10)), file("c", strings.Repeat("x", 6))}, "content exceeds 25 bytes uncompressed (the limit)"},
	}
	for _, r := range readers {
		for _, tc := range cases {
			t.Run(r.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				fsys, err := r.read(t, limits, tc.entries...)
				if tc.message == "" {
					if err != nil {
						t.Fatalf("refused: %v", err)
					}
					if _, err := fs.Stat(fsys, tc.entries[0].name); err != nil && tc.entries[0].kind == tar.TypeReg {
						t.Fatalf("missing %s: %v", tc.entries[0].name, err)
					}
					return
				}
				expectError(t, err, apperr.TooLarge, tc.message)
			})
		}
	}
}

// A small archive that inflates to far more than the limit is stopped at the limit, however
// its headers describe it.
func TestArchiveBombsStopAtTheLimit(t *testing.T) {
	t.Parallel()
	limits := gitbookimport.Limits{MaxEntries: 100, MaxFileBytes: 1 << 20, MaxTotalBytes: 4 << 20}
	big := strings.Repeat("\x00", 64<<20)
	for _, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			_, err := r.read(t, limits, file("zeros.bin", big))
			expectError(t, err, apperr.TooLarge, "(the limit")
		})
	}
	t.Run("zip headers understating the size", func(t *testing.T) {
		t.Parallel()
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		// A stored entry whose header claims 5 bytes and holds 2 MiB.
		fw, err := w.CreateRaw(&zip.FileHeader{Name: "lie.bin", Method: zip.Store, CompressedSize64: 2 << 20, UncompressedSize64: 5})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(strings.Repeat("y", 2<<20))); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		// archive/zip itself refuses an entry longer than its header says.
		_, err = limits.FromZip(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		expectError(t, err, apperr.Invalid, "archive: lie.bin: cannot be read")
	})
	t.Run("tar data of skipped entries counts", func(t *testing.T) {
		t.Parallel()
		// Entries of types the reader skips are still decompressed to reach the next one.
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		w := tar.NewWriter(zw)
		for i := range 8 {
			h := &tar.Header{Name: "vendor" + string(rune('a'+i)), Typeflag: 'V' + 10, Size: 1 << 20, Mode: 0o644}
			if err := w.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(make([]byte, 1<<20)); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		zw.Close()
		_, err := limits.FromTar(bytes.NewReader(buf.Bytes()))
		expectError(t, err, apperr.TooLarge, "content exceeds 4 MiB uncompressed (the limit)")
	})
	t.Run("tar special files are skipped", func(t *testing.T) {
		t.Parallel()
		var buf bytes.Buffer
		w := tar.NewWriter(&buf)
		for _, h := range []*tar.Header{
			{Name: "dev", Typeflag: tar.TypeChar}, {Name: "fifo", Typeflag: tar.TypeFifo},
			{Name: "hard", Typeflag: tar.TypeLink, Linkname: "README.md"},
		} {
			if err := w.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		fsys, err := limits.FromTar(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if entries, _ := fs.ReadDir(fsys, "."); len(entries) != 0 {
			t.Errorf("special files were unpacked: %v", entries)
		}
	})
}

func TestArchivesRefuseWhatTheyCannotRead(t *testing.T) {
	t.Parallel()
	tgz := makeTar(t, true, file("README.md", strings.Repeat("# Home\n", 1000)))
	cases := []struct {
		name    string
		read    func() (fs.FS, error)
		message string
	}{
		{"not a zip", func() (fs.FS, error) { return gitbookimport.FromZip(strings.NewReader("hello"), 5) }, "archive: not a readable zip file"},
		{"not a tar", func() (fs.FS, error) { return gitbookimport.FromTar(strings.NewReader(strings.Repeat("hello", 200))) }, "archive: not a readable tar file"},
		{"truncated gzip", func() (fs.FS, error) { return gitbookimport.FromTar(bytes.NewReader(tgz[:len(tgz)/2])) }, "archive: "},
		{"bad gzip header", func() (fs.FS, error) { return gitbookimport.FromTar(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0})) }, "archive: not a readable gzip file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := tc.read()
			expectError(t, err, apperr.Invalid, tc.message)
		})
	}
	for _, r := range readers {
		t.Run(r.name+"/a path both a file and a directory", func(t *testing.T) {
			t.Parallel()
			_, err := r.read(t, gitbookimport.DefaultLimits, file("a", "x"), file("a/b", "y"))
			expectError(t, err, apperr.Invalid, "a/b: is both a file and a directory")
		})
	}
}

func TestArchivesImport(t *testing.T) {
	t.Parallel()
	want, err := gitbookimport.Import(os.DirFS("testdata/space"))
	if err != nil {
		t.Fatal(err)
	}
	// The sample tree, packed under one top-level directory as a repository archive is.
	var entries []entry
	err = fs.WalkDir(os.DirFS("testdata/space"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path.Join("testdata/space", p))
		entries = append(entries, file("space-main/"+p, string(data)))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			fsys, err := r.read(t, gitbookimport.DefaultLimits, entries...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := gitbookimport.Import(fsys)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(render(t, got), render(t, want)) {
				t.Errorf("importing the %s archive differs from importing the tree:\n%s", r.name, render(t, got))
			}
		})
	}
}
