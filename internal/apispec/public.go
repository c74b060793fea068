package apispec

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The public GitBook spec comes from the npm package @gitbook/api, which holds it in
// spec/openapi.json. It is fetched at test time into a cache outside the repository (it has
// no licence that would let us copy it in), once per machine.
const (
	// ReferenceVersion is the version docsd is wire-compatible with; where it and the
	// newest version disagree, it wins.
	ReferenceVersion = "0.146.0"
	// NewestVersion is the newest version answers are also judged by. Bump it here.
	NewestVersion = "0.202.0"
)

// PublicVersions are the versions of the public spec answers are judged by, oldest first.
var PublicVersions = []string{ReferenceVersion, NewestVersion}

// CacheDir is where the package versions are extracted: $XDG_CACHE_HOME/docsd/gitbook-api,
// by default ~/.cache/docsd/gitbook-api.
func CacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "docsd", "gitbook-api"), nil
}

// SpecPath is where the spec of one version lies once fetched.
func SpecPath(version string) (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, version, "package", "spec", "openapi.json"), nil
}

var (
	publicMu   sync.Mutex
	publicDocs = map[string]*Doc{}
)

// Public returns the parsed public spec of a version, fetching it with npm when the cache
// lacks it. The document is parsed once per process.
func Public(version string) (*Doc, error) {
	publicMu.Lock()
	defer publicMu.Unlock()
	if d, ok := publicDocs[version]; ok {
		return d, nil
	}
	path, err := SpecPath(version)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err = Fetch(version); err == nil {
			raw, err = os.ReadFile(path)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("@gitbook/api@%s: %w", version, err)
	}
	d, err := Parse(version, raw)
	if err != nil {
		return nil, err
	}
	publicDocs[version] = d
	return d, nil
}

// Fetch downloads @gitbook/api@version with `npm pack` into a temporary directory and
// extracts it into the cache. The extraction goes to a directory of its own that is renamed
// into place, so test binaries fetching at the same time never see half a package: the
// first rename wins and the others drop their copy.
func Fetch(version string) error {
	if _, err := exec.LookPath("npm"); err != nil {
		return fmt.Errorf("npm is not installed, and the cache has no copy: %w", err)
	}
	cache, err := CacheDir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(cache, ".fetch-"+version+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", tmp, "@gitbook/api@"+version)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("npm pack @gitbook/api@%s: %v: %s", version, err, strings.TrimSpace(string(out)))
	}
	tarballs, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if len(tarballs) != 1 {
		return fmt.Errorf("npm pack @gitbook/api@%s: want one tarball, found %d", version, len(tarballs))
	}
	dest := filepath.Join(tmp, "out")
	if err := extract(tarballs[0], dest); err != nil {
		return fmt.Errorf("extract @gitbook/api@%s: %w", version, err)
	}
	if _, err := os.Stat(filepath.Join(dest, "package", "spec", "openapi.json")); err != nil {
		return fmt.Errorf("@gitbook/api@%s has no spec/openapi.json", version)
	}
	final := filepath.Join(cache, version)
	if err := os.Rename(dest, final); err != nil {
		// Another process got there first: its copy is as good as ours.
		if _, statErr := os.Stat(filepath.Join(final, "package", "spec", "openapi.json")); statErr == nil {
			return nil
		}
		return err
	}
	return nil
}

// extract unpacks the regular files of a .tgz below dest, refusing paths that leave it.
func extract(tgz, dest string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	const maxFiles, maxBytes = 10000, 200 << 20
	var total int64
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n > maxFiles {
			return fmt.Errorf("more than %d files", maxFiles)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := filepath.Clean(h.Name)
		if filepath.IsAbs(name) || strings.HasPrefix(name, "..") {
			return fmt.Errorf("unsafe path %q", h.Name)
		}
		total += h.Size
		if total > maxBytes {
			return fmt.Errorf("more than %d bytes", maxBytes)
		}
		p := filepath.Join(dest, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		out, err := os.Create(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, io.LimitReader(tr, h.Size))
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}
