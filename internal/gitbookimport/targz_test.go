package gitbookimport

import (
	"bytes"
	"io/fs"
	"testing"
)

func TestTarGzReadsBackWithFromTar(t *testing.T) {
	files := map[string]string{"README.md": "# Home\n", "SUMMARY.md": "* [Home](README.md)\n* [A](a/b.md)\n", "a/b.md": "# A\n"}
	archive, err := TarGz(files)
	if err != nil {
		t.Fatal(err)
	}
	again, err := TarGz(files)
	if err != nil || !bytes.Equal(archive, again) {
		t.Fatalf("the same files made another archive: %v", err)
	}
	fsys, err := FromTar(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		got, err := fs.ReadFile(fsys, name)
		if err != nil || string(got) != text {
			t.Errorf("%s: %q %v, want %q", name, got, err, text)
		}
	}
}
