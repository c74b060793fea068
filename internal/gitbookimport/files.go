package gitbookimport

import (
	"bytes"
	"image"
	_ "image/gif" // image sizes
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

	"docsd/internal/markdoc"
)

// collectFiles makes the space's files: everything under .gitbook/assets/, and any other file
// of the tree a page links to, shows or uses as its cover (a repository's docs/images/, say).
func (im *importer) collectFiles() {
	paths := map[string]bool{}
	for _, p := range im.assets {
		paths[p] = true
	}
	consider := func(p string) {
		if paths[p] || isMarkdown(p) {
			return
		}
		if info, err := fs.Stat(im.fsys, p); err == nil && info.Mode().IsRegular() {
			paths[p] = true
		}
	}
	for _, page := range im.result.Pages {
		if page.Kind != KindDocument || page.Path == "" {
			continue
		}
		if page.Cover != "" && !strings.Contains(page.Cover, "://") {
			consider(page.Cover)
		}
		for _, l := range markdoc.Links(page.Markdown) {
			if l.Kind != markdoc.LinkFile {
				continue
			}
			if p, ok := l.Resolve(page.Path); ok {
				consider(p)
			}
		}
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	slices.Sort(sorted)
	for _, p := range sorted {
		data, err := fs.ReadFile(im.fsys, p)
		if err != nil {
			im.warnf("%s: cannot be read, left out: %v", p, err)
			continue
		}
		f := File{Path: p, Name: path.Base(p), ContentType: contentType(p, data), Data: data}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			f.Width, f.Height = cfg.Width, cfg.Height
		}
		im.result.Files = append(im.result.Files, f)
	}
}

// Content types by extension, for the files documentation holds; the same on every machine,
// unlike mime.TypeByExtension, which reads the system's tables.
var contentTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".svg": "image/svg+xml", ".ico": "image/x-icon",
	".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff",
	".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip", ".tar": "application/x-tar",
	".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml", ".xml": "application/xml",
	".csv": "text/csv; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".md": "text/markdown; charset=utf-8",
	".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
	".woff": "font/woff", ".woff2": "font/woff2", ".ttf": "font/ttf", ".otf": "font/otf",
	".doc": "application/msword", ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xls": "application/vnd.ms-excel", ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ppt": "application/vnd.ms-powerpoint", ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// contentType names a file's type by its extension, or by sniffing its first bytes when the
// extension is unknown (GitBook names some assets without one: "image (1)").
func contentType(p string, data []byte) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(p))]; ok {
		return t
	}
	return http.DetectContentType(data)
}
