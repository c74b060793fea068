// Package gitfetch reads the files of a Git repository at one branch, tag or commit over
// HTTP(S) into memory, for imports. Every request goes through internal/fetch, so the
// operator's address policy, the timeout and the size cap apply to Git as to any other URL.
package gitfetch

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"docsd/internal/fetch"
)

// Failures of this package's own, as kinds of *fetch.Error (test with errors.Is). The first three
// are the caller's doing: a 400 for the API.
var (
	ErrRefNotFound        = errors.New("ref not found")
	ErrRepositoryNotFound = errors.New("repository not found")
	ErrEmptyRepository    = errors.New("empty repository")
	// ErrUnsupportedTree is a tree docsd cannot import (a path that is not UTF-8): the caller's.
	ErrUnsupportedTree = errors.New("unsupported tree")

	// ErrProtocol is the server's doing (a 502): an answer that is not valid Git.
	ErrProtocol = errors.New("git protocol error")
)

// Options bound one fetch. Zero values take the defaults below.
type Options struct {
	// Fetch carries the address policy; its Timeout bounds the whole fetch and its MaxBytes the
	// pack the server sends (compressed).
	Fetch fetch.Options
	// Gate bounds the fetches running at once in the process; nil admits every fetch.
	Gate     *fetch.Gate
	MaxFiles int   // files in the tree; default 10,000
	MaxBytes int64 // total size of the tree's files, uncompressed; default 100 MiB
	// MaxUnpackedBytes bounds every object received, inflated: the tree, and for a commit id
	// that is not a tip, the history too; default 4 × MaxBytes.
	MaxUnpackedBytes int64
}

const (
	DefaultTimeout  = 2 * time.Minute
	DefaultPackSize = 100 << 20
	DefaultMaxFiles = 10000
	DefaultMaxBytes = 100 << 20
)

func (o Options) withDefaults() Options {
	if o.Fetch.Timeout <= 0 {
		o.Fetch.Timeout = DefaultTimeout
	}
	if o.Fetch.MaxBytes <= 0 {
		o.Fetch.MaxBytes = DefaultPackSize
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxUnpackedBytes <= 0 {
		o.MaxUnpackedBytes = 4 * o.MaxBytes
	}
	return o
}

// Result is the tree of one commit and what a revision's `git` metadata needs.
type Result struct {
	Commit  string            // full hex id of the commit
	Message string            // its full message
	Ref     string            // the full ref name fetched ("refs/heads/main"), "HEAD", or "" for a commit id
	Time    time.Time         // committer time
	Files   fs.FS             // the regular files of the commit's tree (no symlinks, no submodules)
	Blobs   map[string]string // path → blob id, for each file in Files
}

// Fetch reads repoURL at ref: a branch or tag name (short or full), a commit id (full, or a
// prefix of at least 7 hex digits), or "" for the remote's HEAD. Branches and tags are fetched
// shallow (depth 1); a commit that is not the tip of a ref needs the history of every branch
// and tag, since servers refuse to send arbitrary commits by id.
//
// Errors are *fetch.Error: of fetch's kinds (ErrForbiddenAddress, ErrTimeout, ErrTooLarge,
// ...) or of this package's (ErrRefNotFound, ErrRepositoryNotFound, ErrEmptyRepository).
func Fetch(ctx context.Context, repoURL, ref string, o Options) (*Result, error) {
	o = o.withDefaults()
	u, err := url.Parse(repoURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		host := ""
		if err == nil {
			host = u.Host
		}
		return nil, fetch.NewError(fetch.ErrUnsupportedScheme, host, true, "a Git repository URL must be an http or https URL with a host")
	}
	client := fetch.New(o.Fetch)
	defer client.HTTPClient().CloseIdleConnections() // the client lives for this fetch only
	if err := client.CheckURL(u); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, o.Fetch.Timeout)
	defer cancel()
	release, err := o.Gate.Enter(ctx, u.Host)
	if err != nil {
		return nil, err
	}
	defer release()
	f := &fetcher{client: client, host: u.Host, opts: o, timeout: o.Fetch.Timeout}
	res, err := f.fetch(ctx, repoURL, ref)
	if err != nil {
		return nil, f.classify(ctx, err)
	}
	return res, nil
}

type fetcher struct {
	client  *fetch.Client
	host    string
	opts    Options
	timeout time.Duration
}

func (f *fetcher) fetch(ctx context.Context, repoURL, ref string) (*Result, error) {
	ep, err := transport.NewEndpoint(repoURL)
	if err != nil {
		return nil, fetch.NewError(fetch.ErrInvalidURL, f.host, true, "the repository URL does not parse")
	}
	// The transport is made per fetch from this fetch's client: nothing is installed globally,
	// so no other go-git user (and no other fetch) can bypass or change the policy.
	sess, err := githttp.NewClient(f.client.HTTPClient()).NewUploadPackSession(ep, nil)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	adv, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil {
		return nil, err
	}
	want, ok := resolve(adv, ref)
	if !ok {
		return nil, fetch.NewError(ErrRefNotFound, f.host, true, "no branch, tag or commit %q in the repository", ref)
	}

	store := memory.NewStorage()
	if err := f.download(ctx, sess, adv, want, store); err != nil {
		return nil, err
	}
	commit, err := f.commitOf(store, want, ref)
	if err != nil {
		return nil, err
	}
	return f.readTree(commit, want.name)
}

// classify turns what go-git returns into a *fetch.Error. go-git wraps transport errors in
// types without Unwrap, so those are opened here before fetch.Classify looks for its own.
func (f *fetcher) classify(ctx context.Context, err error) error {
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return fe
	}
	var status *githttp.Err
	switch inner := unwrapGit(err); {
	case errors.Is(inner, transport.ErrRepositoryNotFound):
		return fetch.NewError(ErrRepositoryNotFound, f.host, true, "no repository at this URL")
	case errors.Is(inner, transport.ErrAuthenticationRequired), errors.Is(inner, transport.ErrAuthorizationFailed):
		return fetch.NewError(ErrRepositoryNotFound, f.host, true, "the repository needs credentials, or does not exist")
	case errors.Is(inner, transport.ErrEmptyRemoteRepository):
		return fetch.NewError(ErrEmptyRepository, f.host, true, "the repository has no commits")
	case ctx.Err() == context.DeadlineExceeded:
		return fetch.NewError(fetch.ErrTimeout, f.host, false, "the repository was not fetched within %s", f.timeout)
	case errors.Is(inner, context.DeadlineExceeded):
		// A shorter limit ran out: connecting, or waiting for the headers.
		return f.client.Classify(f.host, inner)
	case errors.As(inner, &status):
		e := fetch.NewError(fetch.ErrStatus, f.host, false, "the server answered %s", status.Response.Status)
		e.StatusCode, e.Err = status.StatusCode(), err
		return e
	case errors.As(inner, new(*url.Error)) || errors.As(inner, new(net.Error)):
		return f.client.Classify(f.host, inner)
	default:
		// Not the network and not an HTTP status: go-git could not make sense of the answer.
		return protocolError(f.host, err, "the server's answer is not a Git repository")
	}
}

// unwrapGit opens go-git's error wrappers, which do not implement Unwrap.
func unwrapGit(err error) error {
	var ue *plumbing.UnexpectedError
	if errors.As(err, &ue) {
		return unwrapGit(ue.Err)
	}
	var pe *plumbing.PermanentError
	if errors.As(err, &pe) {
		return unwrapGit(pe.Err)
	}
	return err
}

// readTree copies the regular files of commit's tree into memory, within the limits.
func (f *fetcher) readTree(c *object.Commit, refName string) (*Result, error) {
	tree, err := c.Tree()
	if err != nil {
		return nil, protocolError(f.host, err, "the tree of commit %s is not in the pack", c.Hash)
	}
	files := map[string][]byte{}
	executable := map[string]bool{}
	blobs := map[string]string{}
	var total int64
	err = tree.Files().ForEach(func(file *object.File) error {
		if file.Mode != filemode.Regular && file.Mode != filemode.Executable && file.Mode != filemode.Deprecated {
			return nil // symlinks could point outside the tree; submodules are other repositories
		}
		if !utf8.ValidString(file.Name) {
			// A valid Git tree, but no page or file of ours can have that name: the
			// repository's content is at fault, not the server.
			return fetch.NewError(ErrUnsupportedTree, f.host, true,
				"the tree of commit %s has a path that is not UTF-8 (%q)", c.Hash.String()[:12], file.Name)
		}
		if !fs.ValidPath(file.Name) {
			// go-git refuses ".." itself; this keeps Files a valid fs.FS whatever else gets through.
			return protocolError(f.host, nil, "the tree of commit %s has an invalid path %q", c.Hash.String()[:12], file.Name)
		}
		if len(files) == f.opts.MaxFiles {
			return fetch.NewError(fetch.ErrTooLarge, f.host, true,
				"the tree of commit %s has more than %d files, the limit", c.Hash.String()[:12], f.opts.MaxFiles)
		}
		total += file.Size
		if total > f.opts.MaxBytes {
			return fetch.NewError(fetch.ErrTooLarge, f.host, true,
				"the files of commit %s add up to more than %s, the limit", c.Hash.String()[:12], fetch.ByteSize(f.opts.MaxBytes))
		}
		r, err := file.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		files[file.Name] = data
		executable[file.Name] = file.Mode == filemode.Executable
		blobs[file.Name] = file.Hash.String()
		return nil
	})
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return nil, fe
	}
	if err != nil {
		// go-git's own checks (a path like "..", a missing object) name what is wrong.
		return nil, protocolError(f.host, err, "the tree of commit %s cannot be read: %v", c.Hash.String()[:12], err)
	}
	return &Result{
		Commit:  c.Hash.String(),
		Message: c.Message,
		Ref:     refName,
		Time:    c.Committer.When.UTC(),
		Files:   newMemFS(files, executable, c.Committer.When.UTC()),
		Blobs:   blobs,
	}, nil
}
