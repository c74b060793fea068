package gitbookimport

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"docsd/internal/apperr"
)

// Limits bound what an uploaded archive may unpack to, so that a small upload cannot make the
// server hold or inflate an unbounded amount of data (a "zip bomb"). Sizes are of the
// uncompressed content, counted as it is read, whatever the archive's headers claim.
type Limits struct {
	MaxEntries    int   // entries of every kind: files, directories, links, others
	MaxFileBytes  int64 // one file
	MaxTotalBytes int64 // all files together
}

// DefaultLimits fit a large documentation space with its images, and stay far from what
// would strain a server holding the result in memory.
var DefaultLimits = Limits{MaxEntries: 20000, MaxFileBytes: 100 << 20, MaxTotalBytes: 512 << 20}

// FromZip reads a zip archive into a file system, within DefaultLimits.
func FromZip(r io.ReaderAt, size int64) (fs.FS, error) { return DefaultLimits.FromZip(r, size) }

// FromTar reads a tar archive, plain or gzip-compressed, into a file system, within
// DefaultLimits.
func FromTar(r io.Reader) (fs.FS, error) { return DefaultLimits.FromTar(r) }

// FromZip reads a zip archive into a file system held in memory. Symbolic links are left
// out. It fails with an apperr Invalid error for an archive that is not a readable zip file
// or holds an entry with an absolute path or a path climbing out with "..", and with an
// apperr TooLarge error naming the limit when the content exceeds l.
func (l Limits) FromZip(r io.ReaderAt, size int64) (fs.FS, error) {
	zr, err := zip.NewReader(r, size)
	// With GODEBUG=zipinsecurepath=0 the reader flags unsafe names itself; entryPath below
	// refuses them with a message naming the entry, whatever the setting.
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, apperr.Invalidf("archive: not a readable zip file: %v", err)
	}
	if len(zr.File) > l.MaxEntries {
		return nil, l.tooManyEntries()
	}
	// Refuse early what the headers already show to be too large; sizes are checked again
	// while reading, since headers can lie.
	var declared uint64
	for _, f := range zr.File {
		declared += f.UncompressedSize64
	}
	if declared > uint64(l.MaxTotalBytes) {
		return nil, l.tooLarge()
	}
	u := l.newUnpacker()
	for _, f := range zr.File {
		name, err := entryPath(f.Name)
		if err != nil {
			return nil, err
		}
		mode := f.Mode()
		switch {
		case name == "":
		case mode&fs.ModeSymlink != 0:
		case mode.IsDir() || strings.HasSuffix(f.Name, "/"):
			if err := u.dir(name); err != nil {
				return nil, err
			}
		case mode.IsRegular():
			rc, err := f.Open()
			if err != nil {
				return nil, apperr.Invalidf("archive: %s: cannot be read: %v", name, err)
			}
			err = u.file(name, rc, f.Modified)
			rc.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	return u.fs, nil
}

// FromTar reads a tar archive, gzip-compressed or not, into a file system held in memory.
// Symbolic and hard links and special files are left out. Errors are as for FromZip.
func (l Limits) FromTar(r io.Reader) (fs.FS, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, apperr.Invalidf("archive: not a readable gzip file: %v", err)
		}
		defer zr.Close()
		src = zr
	}
	tr := tar.NewReader(src)
	u := l.newUnpacker()
	for entries := 1; ; entries++ {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return u.fs, nil
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return nil, apperr.Invalidf("archive: not a readable tar file: %v", err)
		}
		if entries > l.MaxEntries {
			return nil, l.tooManyEntries()
		}
		if h.Typeflag == tar.TypeXGlobalHeader || h.Typeflag == tar.TypeXHeader {
			continue
		}
		name, err := entryPath(h.Name)
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeReg, tar.TypeRegA:
			if name == "" {
				continue
			}
			if err := u.file(name, tr, h.ModTime); err != nil {
				return nil, err
			}
		case tar.TypeDir:
			if name != "" {
				if err := u.dir(name); err != nil {
					return nil, err
				}
			}
		default:
			// Links and special files are skipped, but whatever data they carry is still
			// decompressed to reach the next entry: count it.
			if err := u.count(h.Size); err != nil {
				return nil, err
			}
		}
	}
}

func (l Limits) tooManyEntries() error {
	return apperr.New(apperr.TooLarge, "archive: holds more than %d entries (the limit)", l.MaxEntries)
}

func (l Limits) tooLarge() error {
	return apperr.New(apperr.TooLarge, "archive: content exceeds %s uncompressed (the limit)", byteSize(l.MaxTotalBytes))
}

// unpacker adds entries to a memFS within limits.
type unpacker struct {
	limits Limits
	fs     *memFS
	total  int64
}

func (l Limits) newUnpacker() *unpacker { return &unpacker{limits: l, fs: newMemFS()} }

func (u *unpacker) count(n int64) error {
	u.total += n
	if n < 0 || u.total > u.limits.MaxTotalBytes {
		return u.limits.tooLarge()
	}
	return nil
}

func (u *unpacker) dir(name string) error {
	if !u.fs.mkdirAll(name) {
		return apperr.Invalidf("archive: %s: is both a file and a directory", name)
	}
	return nil
}

func (u *unpacker) file(name string, r io.Reader, modTime time.Time) error {
	// Read one byte past the smaller limit to tell "at the limit" from "beyond it".
	limit := min(u.limits.MaxFileBytes, u.limits.MaxTotalBytes-u.total)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return apperr.Invalidf("archive: %s: cannot be read: %v", name, err)
	}
	if int64(len(data)) > u.limits.MaxFileBytes {
		return apperr.New(apperr.TooLarge, "archive: %s: exceeds %s (the limit for one file)", name, byteSize(u.limits.MaxFileBytes))
	}
	if err := u.count(int64(len(data))); err != nil {
		return err
	}
	if !u.fs.addFile(name, data, modTime) {
		return apperr.Invalidf("archive: %s: is both a file and a directory", name)
	}
	return nil
}

// entryPath checks and cleans an entry's name: slashes for backslashes, no leading "./" or
// trailing "/". It refuses absolute paths and paths with ".." (an archive could otherwise
// write outside where it is unpacked: "zip slip"). The root itself gives "".
func entryPath(name string) (string, error) {
	p := strings.ReplaceAll(name, `\`, "/")
	switch {
	case strings.ContainsRune(p, 0):
		return "", apperr.Invalidf("archive: entry %q: has a NUL character in its path", name)
	case strings.HasPrefix(p, "/") || isDriveLetter(p):
		return "", apperr.Invalidf("archive: entry %q: has an absolute path", name)
	}
	var parts []string
	for _, part := range strings.Split(p, "/") {
		switch part {
		case "", ".":
		case "..":
			return "", apperr.Invalidf("archive: entry %q: has a path climbing out with \"..\"", name)
		default:
			parts = append(parts, part)
		}
	}
	clean := path.Join(parts...)
	if clean != "" && !fs.ValidPath(clean) {
		return "", apperr.Invalidf("archive: entry %q: has an invalid path", name)
	}
	return clean, nil
}

// isDriveLetter reports whether p starts like a Windows absolute path ("C:").
func isDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// byteSize renders a limit in the largest binary unit that divides it.
func byteSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
