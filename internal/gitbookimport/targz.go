package gitbookimport

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"maps"
	"slices"
)

// TarGz packs files (path to text) as a gzip-compressed tar archive, the kind FromTar reads
// and the import endpoint takes: for programs that import a generated markdown tree
// (benchmarks, crash tests). Entries are in path order, so the same files make the same
// archive.
func TarGz(files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		text := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(text)); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
