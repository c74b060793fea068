package gitfetch

import (
	"bytes"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"docsd/internal/fetch"
)

// checkUnpacked adds up the sizes the pack's objects will have once inflated and refuses the
// pack past the limit, before go-git inflates anything into memory: deflate shrinks runs of
// one byte about a thousandfold, so a pack within its size cap can still unpack to gigabytes.
// Base objects declare their size in their header; a delta declares its result's size in its
// first bytes, which are read without keeping the rest.
func (f *fetcher) checkUnpacked(pack []byte) error {
	limit := f.opts.MaxUnpackedBytes
	tooLarge := func() error {
		return fetch.NewError(fetch.ErrTooLarge, f.host, true,
			"the objects the server sent unpack to more than %s, the limit", fetch.ByteSize(limit))
	}
	sc := packfile.NewScanner(bytes.NewReader(pack))
	_, count, err := sc.Header()
	if err != nil {
		return protocolError(f.host, err, "the pack the server sent does not parse")
	}
	var total int64
	for range count {
		oh, err := sc.NextObjectHeader()
		if err != nil {
			return protocolError(f.host, err, "the pack the server sent does not parse")
		}
		size := oh.Length
		if oh.Type.IsDelta() {
			if oh.Length > limit-total {
				return tooLarge() // the delta's own instructions already exceed the limit
			}
			var head deltaHead
			if _, _, err := sc.NextObject(&head); err != nil {
				return protocolError(f.host, err, "the pack the server sent does not parse")
			}
			if size, err = head.targetSize(); err != nil {
				return protocolError(f.host, err, "the pack the server sent does not parse")
			}
		}
		if size < 0 || size > limit-total {
			return tooLarge()
		}
		total += size
	}
	return nil
}

// deltaHead keeps the first bytes of a delta, where two varints give the base's size and the
// result's, and discards the rest.
type deltaHead struct {
	buf [20]byte
	n   int
}

func (d *deltaHead) Write(p []byte) (int, error) {
	d.n += copy(d.buf[d.n:], p)
	return len(p), nil
}

// targetSize decodes the second varint (little-endian base 128, as Git writes them).
func (d *deltaHead) targetSize() (int64, error) {
	b := d.buf[:d.n]
	var size int64
	for i := 0; i < 2; i++ {
		size = 0
		for shift := 0; ; shift += 7 {
			if len(b) == 0 || shift > 56 {
				return 0, fmt.Errorf("truncated delta header")
			}
			c := b[0]
			b = b[1:]
			size |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				break
			}
		}
	}
	return size, nil
}
