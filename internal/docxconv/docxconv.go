// Package docxconv turns a Word document (.docx) into markdown and the images it holds, with
// pandoc, a maintained converter run as a separate program: no Go library that reads .docx
// is available here, and pandoc reads headings, lists, tables, links and images faithfully.
package docxconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Limits of one conversion.
const (
	Timeout     = 60 * time.Second
	MemoryLimit = "512m" // pandoc's heap, through its runtime's -M option
	MaxMarkdown = 16 << 20
	MaxMedia    = 100 << 20 // all images together
)

// Converter runs pandoc. Program is its name on PATH or its path; empty turns conversion off.
type Converter struct {
	Program string
}

// ErrUnavailable is returned when no pandoc can be run here.
var ErrUnavailable = errors.New("no .docx converter is installed on this server (pandoc)")

// Available reports whether the converter can run: its program is found.
func (c Converter) Available() bool {
	_, err := c.path()
	return err == nil
}

func (c Converter) path() (string, error) {
	if c.Program == "" {
		return "", ErrUnavailable
	}
	p, err := exec.LookPath(c.Program)
	if err != nil {
		return "", ErrUnavailable
	}
	return p, nil
}

// Result is a converted document: its markdown, whose images link to the keys of Media
// (paths under the mediaDir given to Convert).
type Result struct {
	Markdown string
	Media    map[string][]byte
}

// InvalidError is a document pandoc could not read: the uploader's fault, not the server's.
type InvalidError struct{ Detail string }

func (e *InvalidError) Error() string { return "not a readable .docx document: " + e.Detail }

// Convert converts data, a .docx document, to GitHub-flavoured markdown without raw HTML
// (what cannot be said in markdown is dropped rather than passed through as HTML). Images
// are extracted under mediaDir, a relative slash-separated path, which their links in the
// markdown begin with. pandoc runs in its sandbox (it reads and writes no file but its input,
// output and the images), under a time limit and a memory limit.
func (c Converter) Convert(ctx context.Context, data []byte, mediaDir string) (Result, error) {
	bin, err := c.path()
	if err != nil {
		return Result{}, err
	}
	if mediaDir == "" || strings.HasPrefix(mediaDir, "/") || strings.Contains(mediaDir, "..") {
		return Result{}, fmt.Errorf("docxconv: media directory %q must be a relative path inside the work directory", mediaDir)
	}
	work, err := os.MkdirTemp("", "docsd-docx-*")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(work, "in.docx"), data, 0o600); err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "+RTS", "-M"+MemoryLimit, "-RTS", "--sandbox",
		"--from=docx", "--to=gfm-raw_html", "--wrap=none", "--extract-media="+mediaDir, "--output=out.md", "in.docx")
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + work, "LANG=C.UTF-8"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return Result{}, &InvalidError{Detail: fmt.Sprintf("the conversion took longer than %s", Timeout)}
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return Result{}, &InvalidError{Detail: firstLine(stderr.String())}
		}
		return Result{}, err
	}
	md, err := os.ReadFile(filepath.Join(work, "out.md"))
	if err != nil {
		return Result{}, err
	}
	if len(md) > MaxMarkdown {
		return Result{}, &InvalidError{Detail: fmt.Sprintf("its text is over %d bytes as markdown", MaxMarkdown)}
	}
	media, err := readMedia(work, mediaDir)
	if err != nil {
		return Result{}, err
	}
	return Result{Markdown: string(md), Media: media}, nil
}

// readMedia reads the regular files pandoc extracted under dir, within MaxMedia.
func readMedia(work, dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	total := 0
	root := os.DirFS(work)
	err := fs.WalkDir(root, filepath.ToSlash(dir), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == filepath.ToSlash(dir) {
			return fs.SkipAll // no images
		}
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		if total += len(b); total > MaxMedia {
			return &InvalidError{Detail: fmt.Sprintf("its images are over %d bytes", MaxMedia)}
		}
		out[p] = b
		return nil
	})
	return out, err
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "pandoc could not read it"
	}
	return s
}
