package gitsync

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"docsd/internal/fetch"
)

// pushRequest is one commit to push: files by path (the whole tree), on top of the ref's
// current commit when there is one.
type pushRequest struct {
	URL, Ref, Message string
	Files             map[string][]byte
	When              time.Time
}

// push writes the files as a commit whose parent is the ref's current tip (none for a new
// ref) and updates the ref to it with receive-pack, through the outbound policy's client.
// The update names the tip it saw, so a ref moved meanwhile makes the push fail rather than
// lose the other commit. It returns the new commit's id.
func push(ctx context.Context, client *fetch.Client, req pushRequest) (string, error) {
	ep, err := transport.NewEndpoint(req.URL)
	if err != nil {
		return "", errors.New("the repository URL does not parse")
	}
	sess, err := githttp.NewClient(client.HTTPClient()).NewReceivePackSession(ep, nil)
	if err != nil {
		return "", err
	}
	defer sess.Close()
	adv, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return "", err
	}
	old := plumbing.ZeroHash
	caps := packp.NewAdvRefs().Capabilities
	if adv != nil {
		caps = adv.Capabilities
		if refs, err := adv.AllReferences(); err == nil {
			if r, ok := refs[plumbing.ReferenceName(req.Ref)]; ok {
				old = r.Hash()
			}
		}
	}
	st := memory.NewStorage()
	tree, err := writeTree(st, req.Files)
	if err != nil {
		return "", err
	}
	sig := object.Signature{Name: "docsd", Email: "docsd@localhost", When: req.When}
	commit := &object.Commit{Author: sig, Committer: sig, Message: req.Message, TreeHash: tree}
	if !old.IsZero() {
		commit.ParentHashes = []plumbing.Hash{old}
	}
	head, err := store(st, commit.Encode)
	if err != nil {
		return "", err
	}
	var hashes []plumbing.Hash
	for h := range st.Objects {
		hashes = append(hashes, h)
	}
	var pack bytes.Buffer
	if _, err := packfile.NewEncoder(&pack, st, false).Encode(hashes, 10); err != nil {
		return "", err
	}
	up := packp.NewReferenceUpdateRequestFromCapabilities(caps)
	up.Commands = []*packp.Command{{Name: plumbing.ReferenceName(req.Ref), Old: old, New: head}}
	up.Packfile = io.NopCloser(&pack)
	status, err := sess.ReceivePack(ctx, up)
	if err != nil {
		return "", err
	}
	if status != nil {
		if err := status.Error(); err != nil {
			return "", err
		}
	}
	return head.String(), nil
}

// store encodes an object into st and returns its hash.
func store(st *memory.Storage, encode func(plumbing.EncodedObject) error) (plumbing.Hash, error) {
	obj := st.NewEncodedObject()
	if err := encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return st.SetEncodedObject(obj)
}

// writeTree stores the files as blobs and trees and returns the root tree's hash. Entries
// are sorted the way Git compares them (a directory as its name followed by "/"), which
// `git fsck --strict` checks.
func writeTree(st *memory.Storage, files map[string][]byte) (plumbing.Hash, error) {
	type dir struct {
		files map[string][]byte
		dirs  map[string]*dir
	}
	newDir := func() *dir { return &dir{files: map[string][]byte{}, dirs: map[string]*dir{}} }
	root := newDir()
	for p, data := range files {
		d := root
		parts := strings.Split(p, "/")
		for _, seg := range parts[:len(parts)-1] {
			if d.dirs[seg] == nil {
				d.dirs[seg] = newDir()
			}
			d = d.dirs[seg]
		}
		d.files[parts[len(parts)-1]] = data
	}
	var write func(d *dir) (plumbing.Hash, error)
	write = func(d *dir) (plumbing.Hash, error) {
		var t object.Tree
		for name, data := range d.files {
			h, err := store(st, func(o plumbing.EncodedObject) error {
				o.SetType(plumbing.BlobObject)
				w, err := o.Writer()
				if err != nil {
					return err
				}
				if _, err := w.Write(data); err != nil {
					return err
				}
				return w.Close()
			})
			if err != nil {
				return h, err
			}
			t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
		}
		for name, sub := range d.dirs {
			h, err := write(sub)
			if err != nil {
				return h, err
			}
			t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		key := func(e object.TreeEntry) string {
			if e.Mode == filemode.Dir {
				return e.Name + "/"
			}
			return e.Name
		}
		sort.Slice(t.Entries, func(i, j int) bool { return key(t.Entries[i]) < key(t.Entries[j]) })
		return store(st, t.Encode)
	}
	return write(root)
}

// keepOutside adds to files those of an existing tree that lie outside dir, so an export into
// a project directory leaves the rest of the repository as it was.
func keepOutside(files map[string][]byte, existing fs.FS, dir string) error {
	return fs.WalkDir(existing, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return nil
		}
		b, err := fs.ReadFile(existing, p)
		if err == nil {
			files[path.Clean(p)] = b
		}
		return err
	})
}
