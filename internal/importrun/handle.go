package importrun

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing/fstest"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/webimport"
)

// HandleJob carries out a run: it reads the source, then commits the content and the run's
// completion in one transaction. A run that ended (completed, cancelled, failed) is left
// alone, so a job run again after a restart writes nothing twice; a run cancelled before the
// commit writes nothing at all. Failures retrying cannot fix end the run as failed at once;
// others are retried, and the last failed attempt ends it (OnJobFailed).
func (s *Service) HandleJob(ctx context.Context, raw json.RawMessage) error {
	var p runPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return permanent(err)
	}
	r, err := s.store.RunByID(ctx, p.Run)
	if err != nil {
		return permanent(err)
	}
	if !r.Active() {
		return nil
	}
	if r.Status == Pending {
		if _, err := s.store.SetStatus(ctx, s.clock.Now(), r.ID, []string{Pending}, InProgress, ""); err != nil {
			return err
		}
	}
	check := func() error {
		cur, err := s.store.RunByID(ctx, r.ID)
		if err != nil {
			return err
		}
		if cur.Status != InProgress {
			return errCancelled
		}
		return nil
	}
	if err := check(); err != nil {
		return ignoreCancelled(err)
	}
	res, sources, warnings, err := s.read(ctx, r, p, check)
	if err == nil && len(res.Pages) == 0 {
		err = apperr.Invalidf("source: nothing to import (no pages were found)")
	}
	if err != nil {
		if errors.Is(err, errCancelled) {
			return nil
		}
		if final(err) {
			if ferr := s.fail(ctx, r.ID, reasonOf(err)); ferr != nil {
				return ferr
			}
			return permanent(err)
		}
		return err
	}
	err = s.commit(ctx, r, res, sources, append(warnings, res.Warnings...))
	if final(err) {
		if ferr := s.fail(ctx, r.ID, reasonOf(err)); ferr != nil {
			return ferr
		}
		return permanent(err)
	}
	return ignoreCancelled(err)
}

func ignoreCancelled(err error) error {
	if errors.Is(err, errCancelled) {
		return nil
	}
	return err
}

// final reports failures retrying cannot fix: the client's (4xx but a 409, which a moved head
// answers), and a fetch refused by the address policy.
func final(err error) bool {
	if err == nil || errors.Is(err, errCancelled) {
		return false
	}
	if e, ok := apperr.As(err); ok {
		return e.Status() >= 400 && e.Status() < 500 && e.Code != apperr.Conflict
	}
	var pe *FinalError
	return errors.As(err, &pe)
}

// read turns the run's source into an imported tree, with each page file's source URL.
func (s *Service) read(ctx context.Context, r Run, p runPayload, check func() error) (*gitbookimport.Result, map[string]string, []string, error) {
	switch r.Source.Type {
	case SourceWebsite:
		site, err := webimport.Crawl(ctx, s.fetch, r.Source.URL, s.Limits, check)
		if err != nil {
			if errors.Is(err, errCancelled) {
				return nil, nil, nil, err
			}
			return nil, nil, nil, crawlError(err)
		}
		tree := fstest.MapFS{} // an in-memory tree; fstest's is the standard library's one
		for name, data := range site.Files {
			tree[name] = &fstest.MapFile{Data: data, Mode: 0o644}
		}
		res, err := gitbookimport.Import(tree)
		return res, site.Sources, site.Errors, err
	case SourceFile:
		return s.readFiles(ctx, r)
	case SourceArchive, SourceGit:
		obj, err := s.blobs.Open(ctx, p.Archive)
		if err != nil {
			return nil, nil, nil, permanent(err)
		}
		defer obj.Close()
		fsys, err := gitbookimport.FromTar(obj)
		if err != nil {
			return nil, nil, nil, permanent(err)
		}
		res, err := gitbookimport.Import(fsys)
		return res, nil, nil, err
	}
	return nil, nil, nil, permanent(fmt.Errorf("import run %s: unknown source %q", r.ID, r.Source.Type))
}

// crawlError makes a failed crawl's start the run's reason: a URL at fault is final.
func crawlError(err error) error {
	var fe interface{ CallerFault() bool }
	if errors.As(err, &fe) && fe.CallerFault() {
		return apperr.Invalidf("source.url: %v", err)
	}
	return err
}

// readFiles reads uploaded files: archives of a markdown tree, markdown files and HTML files,
// side by side in the order given.
func (s *Service) readFiles(ctx context.Context, r Run) (*gitbookimport.Result, map[string]string, []string, error) {
	out := &gitbookimport.Result{}
	for i, key := range r.Source.Files {
		u, err := s.store.UploadByKey(ctx, r.OrgID, key)
		if err != nil {
			return nil, nil, nil, apperr.Invalidf("source.files[%d]: %s", i, reasonOf(err))
		}
		data, err := s.uploaded(ctx, u)
		if err != nil {
			return nil, nil, nil, err
		}
		format, err := fileFormat(u.Name)
		if err != nil {
			return nil, nil, nil, apperr.Invalidf("source.files[%d]: %v", i, err)
		}
		var part *gitbookimport.Result
		switch format {
		case formatZip, formatTar:
			var ferr error
			if format == formatZip {
				f, err := gitbookimport.FromZip(bytes.NewReader(data), int64(len(data)))
				if err == nil {
					part, ferr = gitbookimport.Import(f)
				} else {
					ferr = err
				}
			} else {
				f, err := gitbookimport.FromTar(bytes.NewReader(data))
				if err == nil {
					part, ferr = gitbookimport.Import(f)
				} else {
					ferr = err
				}
			}
			if ferr != nil {
				return nil, nil, nil, apperr.Invalidf("source.files[%d]: %s", i, reasonOf(ferr))
			}
		case formatMarkdown:
			part = singlePage(u.Name, "", string(data))
		case formatDocx:
			if part, err = s.readDocx(ctx, i, u.Name, data); err != nil {
				return nil, nil, nil, err
			}
		case formatHTML:
			title, md, err := webimport.HTMLToMarkdown(data, u.Name)
			if err != nil {
				return nil, nil, nil, apperr.Invalidf("source.files[%d]: not readable HTML: %v", i, err)
			}
			part = singlePage(u.Name, title, md)
		}
		appendResult(out, part)
	}
	return out, nil, nil, nil
}

// uploaded reads an upload's bytes: from the blob store when docsd took them, else from the
// bucket by key.
func (s *Service) uploaded(ctx context.Context, u Upload) ([]byte, error) {
	if u.BlobHash != "" {
		obj, err := s.blobs.Open(ctx, u.BlobHash)
		if err != nil {
			return nil, err
		}
		defer obj.Close()
		return readAll(obj, UploadMaxBytes)
	}
	p, ok := s.blobs.(Presigner)
	if !ok {
		return nil, apperr.Invalidf("source.files: nothing was uploaded to %q", u.Key)
	}
	rc, err := p.OpenKey(ctx, u.Key, u.Size)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return readAll(rc, u.Size)
}

// singlePage is an import of one markdown text: its title from its first "# " heading (or
// the given title, or the file's name).
func singlePage(name, title, md string) *gitbookimport.Result {
	md = strings.TrimLeft(md, "\ufeff\n")
	if rest, ok := strings.CutPrefix(md, "# "); ok {
		line, body, _ := strings.Cut(rest, "\n")
		if title == "" {
			title = strings.TrimSpace(line)
		}
		md = strings.TrimLeft(body, "\n")
	}
	base := path.Base(name)
	if title == "" {
		title = strings.TrimSuffix(base, path.Ext(base))
	}
	res := &gitbookimport.Result{Pages: []gitbookimport.Page{{Parent: -1, Kind: gitbookimport.KindDocument, Title: title,
		Slug: slugOf(title), Markdown: md}}}
	if w := gitbookimport.UnknownTagsWarning(base, md); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res
}

// appendResult places part's pages after out's, at the top level, and adds its files.
func appendResult(out, part *gitbookimport.Result) {
	off := len(out.Pages)
	for _, p := range part.Pages {
		if p.Parent >= 0 {
			p.Parent += off
		}
		out.Pages = append(out.Pages, p)
	}
	have := map[string]bool{}
	for _, f := range out.Files {
		have[f.Path] = true
	}
	for _, f := range part.Files {
		if !have[f.Path] {
			out.Files = append(out.Files, f)
		}
	}
	out.Warnings = append(out.Warnings, part.Warnings...)
}

// commit writes the imported tree under the target page, in the change request or the space,
// and completes the run in the same transaction.
func (s *Service) commit(ctx context.Context, r Run, res *gitbookimport.Result, sources map[string]string, warnings []string) error {
	stored := map[string]string{}
	sizes := map[string]int64{}
	for _, f := range res.Files {
		ref, err := s.blobs.Put(ctx, bytes.NewReader(f.Data), int64(len(f.Data))+1)
		if err != nil {
			return err
		}
		stored[f.Path], sizes[f.Path] = ref.Hash, ref.Size
	}
	var made []Page
	change := func(v *content.View) (content.Changes, error) {
		ch, pages, err := changes(v, r, res, stored, sizes, sources, s.clock.Now())
		made = pages
		return ch, err
	}
	c := auth.Caller{UserID: r.CreatedBy}
	also := func(ctx context.Context, tx content.Tx, revision string) error {
		src, ok := tx.(TxSource)
		if !ok {
			return errors.New("importrun: the content transaction does not hold import runs")
		}
		done, err := src.ImportRuns().CompleteRun(ctx, s.clock.Now(), r.ID, revision, made, warnings)
		if err != nil {
			return err
		}
		if !done {
			return errCancelled // rolls the content back with it
		}
		return nil
	}
	if r.Target.ChangeRequest != "" {
		_, err := s.crs.ApplyChanges(ctx, c, r.Target.Space, r.Target.ChangeRequest, change, also)
		return err
	}
	_, err := s.content.ApplyToHead(ctx, c, r.Target.Space, change, func(ctx context.Context, tx content.Tx, rev content.Revision) error {
		return also(ctx, tx, rev.ID)
	})
	return err
}

// changes turns the imported tree into new pages under the target page, after its
// children. Ids derive from the run and the page's place in the tree, so a run carried out
// again makes the same pages, never copies.
func changes(v *content.View, r Run, res *gitbookimport.Result, stored map[string]string, sizes map[string]int64, sources map[string]string, now time.Time) (content.Changes, []Page, error) {
	var ch content.Changes
	now = now.UTC().Truncate(time.Millisecond)
	for _, f := range res.Files {
		id := derived("f", r.ID, "file:"+f.Path)
		ch.UpsertFiles = append(ch.UpsertFiles, contenttree.File{ID: id, Name: f.Name, ContentType: f.ContentType,
			Hash: stored[f.Path], Size: sizes[f.Path], Dimensions: contenttree.Dimensions{Width: f.Width, Height: f.Height}})
	}
	parent := r.Target.Page
	deeper := strings.Repeat("../", depth(v, parent))
	siblings := v.ChildPages(parent)
	lastOrder := map[string]string{}
	slugs := map[string]bool{}
	for _, sib := range siblings {
		lastOrder[parent] = sib.Order
		slugs[sib.Slug] = true
	}
	ids := make([]string, len(res.Pages))
	var made []Page
	for i, ip := range res.Pages {
		id := derived("p", r.ID, fmt.Sprintf("page:%d:%s", i, ip.Path))
		ids[i] = id
		parentID := parent
		if ip.Parent >= 0 {
			parentID = ids[ip.Parent]
		}
		order, err := contenttree.OrderBetween(lastOrder[parentID], "")
		if err != nil {
			return ch, nil, apperr.Conflictf("target: the siblings' order keys leave no room (%v)", err)
		}
		lastOrder[parentID] = order
		slug := ip.Slug
		if ip.Parent < 0 && ip.Kind != gitbookimport.KindLink {
			if slug == "" {
				slug = slugOf(ip.Title)
			}
			base := slug
			for n := 2; slugs[slug]; n++ {
				slug = fmt.Sprintf("%s-%d", base, n)
			}
			slugs[slug] = true
		}
		p := contenttree.Page{ID: id, ParentID: parentID, Order: order, Kind: contenttree.Kind(ip.Kind), Title: ip.Title,
			Slug: slug, Emoji: ip.Emoji, Description: ip.Description, Hidden: ip.Hidden, Markdown: deepenAssetLinks(ip.Markdown, deeper),
			CreatedAt: now, UpdatedAt: now}
		if ip.Kind == gitbookimport.KindLink {
			p.Target, _ = json.Marshal(map[string]string{"kind": "url", "url": ip.Href})
		}
		ch.UpsertPages = append(ch.UpsertPages, p)
		made = append(made, Page{ID: id, Type: pageType(p.Kind), SourceURL: sources[ip.Path]})
	}
	return ch, made, nil
}

// depth counts the path segments of a page: its own and its ancestors'.
func depth(v *content.View, pageID string) int {
	n := 0
	for id := pageID; id != "" && n < 1000; n++ {
		p, ok := v.Page(id)
		if !ok {
			break
		}
		id = p.ParentID
	}
	return n
}

// assetLink matches a link destination into the tree's assets, as gitbookimport writes them
// relative to a page at the top level of the space ("../.gitbook/assets/" from a nested one).
var assetLink = regexp.MustCompile(`(\]\(\s*<?|\]:[ \t]*<?|\b(?:url|src|href)\s*=\s*["'])((?:\.\./)*\.gitbook/assets/)`)

// deepenAssetLinks keeps links to assets pointing at the space's assets when the pages go
// under a page, deeper by prefix ("../" per segment of the page's path). Links between the
// imported pages need nothing: they all move down together.
func deepenAssetLinks(md, prefix string) string {
	if prefix == "" {
		return md
	}
	return assetLink.ReplaceAllString(md, "${1}"+prefix+"${2}")
}

// derived is an id made from the run and what it names: stable across attempts of a run.
func derived(prefix, runID, what string) string {
	h := sha256.Sum256([]byte(runID + "\x00" + what))
	return prefix + hex.EncodeToString(h[:])[:19]
}

// slugOf derives a slug from a title: lower-case letters and digits joined by dashes.
func slugOf(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if b.Len() > 0 && !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "page"
	}
	return s[:min(len(s), 100)]
}

// Archive packs a tree into a tar, for the runs of archive and Git imports.
func Archive(files map[string][]byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, data := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data))}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), tw.Close()
}

// FinalError is a failure of a run's job that retrying cannot fix: the job queue should fail
// the job at once (the run has been marked failed already).
type FinalError struct{ Err error }

func (e *FinalError) Error() string { return e.Err.Error() }
func (e *FinalError) Unwrap() error { return e.Err }

func permanent(err error) error { return &FinalError{Err: err} }
