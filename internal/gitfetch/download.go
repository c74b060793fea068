package gitfetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"

	"docsd/internal/fetch"
)

// download asks for want and stores the pack the server sends.
func (f *fetcher) download(ctx context.Context, sess transport.UploadPackSession, adv *packp.AdvRefs, want target, store *memory.Storage) error {
	req := packp.NewUploadPackRequestFromCapabilities(adv.Capabilities)
	if adv.Capabilities.Supports(capability.NoProgress) {
		if err := req.Capabilities.Set(capability.NoProgress); err != nil {
			return err
		}
	}
	if want.hash.IsZero() {
		req.Wants = historyWants(adv)
	} else {
		req.Wants = []plumbing.Hash{want.hash}
		if adv.Capabilities.Supports(capability.Shallow) {
			req.Depth = packp.DepthCommits(1)
			if err := req.Capabilities.Set(capability.Shallow); err != nil {
				return err
			}
		}
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Close()

	// The pack parser does not always keep the reader's error in its chain; remember it, so a
	// pack cut at the size cap is reported as such.
	body := &stickyReader{r: resp}
	var r io.Reader = body
	switch {
	case req.Capabilities.Supports(capability.Sideband64k):
		r = sideband.NewDemuxer(sideband.Sideband64k, body)
	case req.Capabilities.Supports(capability.Sideband):
		r = sideband.NewDemuxer(sideband.Sideband, body)
	}
	// The pack is held whole (it is within the client's size cap) so that its objects' sizes can
	// be checked before any is inflated.
	pack, err := io.ReadAll(r)
	if err == nil {
		err = f.checkUnpacked(pack)
	}
	if err == nil {
		if err = packfile.UpdateObjectStorage(store, bytes.NewReader(pack)); err != nil {
			err = protocolError(f.host, err, "the pack the server sent does not parse")
		}
	}
	if err != nil {
		var fe *fetch.Error
		if errors.As(body.err, &fe) {
			return fe
		}
		if body.err != nil {
			return body.err
		}
		return err
	}
	return nil
}

func protocolError(host string, cause error, format string, args ...any) error {
	e := fetch.NewError(ErrProtocol, host, false, format, args...)
	e.Err = cause
	return e
}

type stickyReader struct {
	r   io.Reader
	err error
}

func (s *stickyReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// commitOf finds the commit to read in what was downloaded.
func (f *fetcher) commitOf(store *memory.Storage, want target, ref string) (*object.Commit, error) {
	notFound := func(format string, args ...any) error {
		return fetch.NewError(ErrRefNotFound, f.host, true, format, args...)
	}
	if !want.hash.IsZero() {
		obj, err := object.GetObject(store, want.hash)
		if err != nil {
			return nil, protocolError(f.host, err, "the server did not send %s", want.hash)
		}
		switch o := obj.(type) {
		case *object.Commit:
			return o, nil
		case *object.Tag:
			c, err := o.Commit()
			if err != nil {
				return nil, notFound("tag %q does not point to a commit", ref)
			}
			return c, nil
		default:
			return nil, notFound("%q does not point to a commit", ref)
		}
	}
	if len(want.commit) == 40 {
		c, err := object.GetCommit(store, plumbing.NewHash(want.commit))
		if err != nil {
			return nil, notFound("no branch, tag or commit %q in the repository", ref)
		}
		return c, nil
	}
	var found []*object.Commit
	encoded, err := store.IterEncodedObjects(plumbing.CommitObject)
	if err != nil {
		return nil, err
	}
	err = object.NewCommitIter(store, encoded).ForEach(func(c *object.Commit) error {
		if strings.HasPrefix(c.Hash.String(), want.commit) {
			found = append(found, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch len(found) {
	case 0:
		return nil, notFound("no branch, tag or commit %q in the repository", ref)
	case 1:
		return found[0], nil
	default:
		return nil, notFound("commit id %q is ambiguous: %d commits start with it", ref, len(found))
	}
}
