package content

import (
	"bytes"
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/blob"
	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/space"
)

// CanEdit checks that the caller may change the space's content: 404 without read access,
// 403 below the edit role, 409 while the space is locked. It returns the space as they see it.
func (s *Service) CanEdit(ctx context.Context, c auth.Caller, spaceID string) (space.View, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, err
	}
	if !v.Role.AtLeast(auth.Edit) {
		return v, apperr.Forbiddenf("this needs the edit role on space %s (you have %s)", spaceID, v.Role)
	}
	return v, space.RequireEditable(v.Space)
}

// Replace makes tree the space's content: a new revision on top of the current head, which
// then becomes the head (see CanEdit for who may). Pages and files equal to the head's keep
// their records, so only what differs is written. Files' bytes must already be in the blob
// store. When the head moves meanwhile, nothing is written and the answer is a 409.
func (s *Service) Replace(ctx context.Context, c auth.Caller, spaceID string, tree *contenttree.Tree) (Revision, Stats, error) {
	v, err := s.CanEdit(ctx, c, spaceID)
	if err != nil {
		return Revision{}, Stats{}, err
	}
	return s.replaceHead(ctx, c, v, nil, func(*Snapshot, time.Time) (*contenttree.Tree, error) { return tree, nil }, nil)
}

// Import makes an imported markdown tree the space's content, as Replace does. Its files'
// bytes go to the blob store first (blobs are content-addressed: storing them again, or for
// an import that then fails, is harmless). Pages at the same place as in the current content
// keep their ids.
func (s *Service) Import(ctx context.Context, c auth.Caller, spaceID string, res *gitbookimport.Result, blobs blob.Store) (Revision, Stats, error) {
	return s.importTree(ctx, c, spaceID, res, blobs, false, nil)
}

// ImportAlso is Import with also run inside the commit's transaction, after it, with the
// revision and the tree it holds: what also writes commits or vanishes with the content, and
// an error from it writes nothing.
func (s *Service) ImportAlso(ctx context.Context, c auth.Caller, spaceID string, res *gitbookimport.Result, blobs blob.Store, also AfterImport) (Revision, Stats, error) {
	return s.importTree(ctx, c, spaceID, res, blobs, false, also)
}

// ImportIntoEmpty is Import for a space without pages, such as a template's content: when the
// space has pages, nothing is written and the answer is 409, so no content is ever replaced.
func (s *Service) ImportIntoEmpty(ctx context.Context, c auth.Caller, spaceID string, res *gitbookimport.Result, blobs blob.Store) (Revision, Stats, error) {
	return s.importTree(ctx, c, spaceID, res, blobs, true, nil)
}

// AfterImport runs inside an import's transaction, after its commit, with the new revision and
// its tree.
type AfterImport func(ctx context.Context, tx Tx, rev Revision, tree *contenttree.Tree) error

func (s *Service) importTree(ctx context.Context, c auth.Caller, spaceID string, res *gitbookimport.Result, blobs blob.Store, onlyIntoEmpty bool, also AfterImport) (Revision, Stats, error) {
	v, err := s.CanEdit(ctx, c, spaceID)
	if err != nil {
		return Revision{}, Stats{}, err
	}
	stored, err := storeFiles(ctx, res, blobs)
	if err != nil {
		return Revision{}, Stats{}, err
	}
	var git *GitCommit
	if res.Commit != nil {
		git = &GitCommit{OID: res.Commit.OID, Message: res.Commit.Message, Ref: res.Commit.Ref, URL: res.Commit.URL}
	}
	return s.replaceHead(ctx, c, v, git, func(head *Snapshot, now time.Time) (*contenttree.Tree, error) {
		if n := len(head.Tree.Pages); onlyIntoEmpty && n > 0 {
			return nil, apperr.Conflictf("space %s already has %d pages: a template applies only to a space without pages", spaceID, n)
		}
		return importedTree(head, res, stored, now)
	}, also)
}

// storeFiles puts an import's file bytes in the blob store, by path.
func storeFiles(ctx context.Context, res *gitbookimport.Result, blobs blob.Store) (map[string]blob.Ref, error) {
	stored := map[string]blob.Ref{}
	for _, f := range res.Files {
		ref, err := blobs.Put(ctx, bytes.NewReader(f.Data), int64(len(f.Data))+1)
		if err != nil {
			return nil, err
		}
		stored[f.Path] = ref
	}
	return stored, nil
}

// replaceHead commits the tree that build makes from the current head at now, and moves the
// head.
func (s *Service) replaceHead(ctx context.Context, c auth.Caller, v space.View, git *GitCommit, build func(head *Snapshot, now time.Time) (*contenttree.Tree, error), also AfterImport) (Revision, Stats, error) {
	now := s.clock.Now()
	var rev Revision
	var st Stats
	err := s.store.Write(ctx, now, func(tx Tx) error {
		base, err := s.snapshot(ctx, tx, v.Revision)
		if err != nil {
			return err
		}
		tree, err := build(base, now)
		if err != nil {
			return err
		}
		rev, st, err = s.Commit(ctx, tx, v.Revision, ChangesTo(base, tree), Meta{SpaceID: v.ID, AuthorID: c.UserID, Git: git}, now)
		if err != nil {
			return err
		}
		if err := MoveHead(ctx, tx, v.ID, v.Revision, rev.ID); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx, rev, tree)
		}
		return nil
	})
	return rev, st, err
}

// ApplyToHead commits the changes that change makes to the space's current content (read
// through a view, as change requests are) and moves the head, as the caller (see CanEdit).
// also runs inside the same transaction, after the commit: what it writes commits or vanishes
// with the content, and an error from it writes nothing. A head that moved meanwhile is a 409.
func (s *Service) ApplyToHead(ctx context.Context, c auth.Caller, spaceID string, change func(*View) (Changes, error), also func(ctx context.Context, tx Tx, rev Revision) error) (Revision, error) {
	v, err := s.CanEdit(ctx, c, spaceID)
	if err != nil {
		return Revision{}, err
	}
	view, err := s.RevisionView(ctx, v.Revision)
	if err != nil {
		return Revision{}, err
	}
	ch, err := change(view)
	if err != nil {
		return Revision{}, err
	}
	now := s.clock.Now()
	var rev Revision
	err = s.store.Write(ctx, now, func(tx Tx) error {
		rev, _, err = s.Commit(ctx, tx, v.Revision, ch, Meta{SpaceID: v.ID, AuthorID: c.UserID}, now)
		if err != nil {
			return err
		}
		if err := MoveHead(ctx, tx, v.ID, v.Revision, rev.ID); err != nil {
			return err
		}
		if also != nil {
			return also(ctx, tx, rev)
		}
		return nil
	})
	return rev, err
}
