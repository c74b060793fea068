package delivery

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/contentkit"
	"docsd/internal/integration"
)

// BlockAnswer is an integration block of a published page, rendered.
type BlockAnswer struct {
	contentkit.Output
	// Policy is the integration's contentSecurityPolicy (CSPHeader), for the page's header.
	Policy string
	// Expires is when the answer stops being fresh, as the script's Cache-Control said
	// (max-age); zero when it may not be kept at all.
	Expires time.Time
}

// blockAnswers caches rendered blocks by site, installation version, block and props, each
// until its expiry.
type blockAnswers struct {
	mu      sync.Mutex
	answers map[string]BlockAnswer
}

// blocksKept bounds the cached blocks; past it the cache starts again.
const blocksKept = 512

// Block renders an integration block of a published page: a ui_render event for the block's
// component with its props (integration.Service.BlockRenderEvent), run in the integration's
// script, its ContentKit turned into HTML (contentkit.Render). The answer is kept as long as
// the script's Cache-Control max-age says. A block whose integration is not installed, a script
// that fails, times out, or answers anything but ContentKit is an error (the page shows it in
// a small box).
func (d *Deliverer) Block(ctx context.Context, req integration.BlockRequest) (BlockAnswer, error) {
	dl, version, err := d.Integrations.BlockRenderEvent(ctx, req)
	if err != nil {
		return BlockAnswer{}, err
	}
	props, err := json.Marshal(req.Props)
	if err != nil {
		return BlockAnswer{}, err
	}
	sum := sha256.Sum256(props)
	key := strings.Join([]string{req.SiteID, req.SpaceID, dl.Installation.ID, version, req.Block, hex.EncodeToString(sum[:])}, "\x00")
	now := d.Clock.Now()
	d.blocks.mu.Lock()
	a, ok := d.blocks.answers[key]
	d.blocks.mu.Unlock()
	if ok && now.Before(a.Expires) {
		return a, nil
	}
	res, err := d.answer(ctx, dl, nil, purpose{what: "render its block", accepts: is200})
	if err != nil {
		return BlockAnswer{}, err
	}
	out, err := contentkit.Render(res.Body)
	if err != nil {
		return BlockAnswer{}, apperr.New(apperr.BadGateway, "integration %s: %v", dl.Integration.Name, err)
	}
	a = BlockAnswer{Output: out, Policy: integration.CSPHeader(dl.Integration.Manifest.CSP)}
	// A development tunnel's answer is not kept: it changes with the developer's code.
	if age := MaxAge(res.Headers.Get("Cache-Control")); age > 0 && dl.Tunnel == "" {
		a.Expires = now.Add(age)
		d.blocks.mu.Lock()
		if d.blocks.answers == nil || len(d.blocks.answers) >= blocksKept {
			d.blocks.answers = map[string]BlockAnswer{}
		}
		d.blocks.answers[key] = a
		d.blocks.mu.Unlock()
	}
	return a, nil
}

// MaxAge reads how long a Cache-Control header lets an answer be kept: its max-age (s-maxage
// first), none for no-store, no-cache or private.
func MaxAge(cc string) time.Duration {
	var age, shared time.Duration = -1, -1
	for _, part := range strings.Split(cc, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(strings.ToLower(part)), "=")
		n, err := strconv.Atoi(strings.Trim(value, `"`))
		switch {
		case name == "no-store" || name == "no-cache" || name == "private":
			return 0
		case name == "max-age" && err == nil && n >= 0:
			age = time.Duration(n) * time.Second
		case name == "s-maxage" && err == nil && n >= 0:
			shared = time.Duration(n) * time.Second
		}
	}
	if shared >= 0 {
		age = shared
	}
	// A day at most: a script that changes is a new version anyway.
	return max(0, min(age, 24*time.Hour))
}
