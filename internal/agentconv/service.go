package agentconv

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/clock"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// Orgs tells a caller's role in an organization (org.Service does).
type Orgs interface {
	Role(ctx context.Context, c auth.Caller, orgID string) (auth.Role, bool, error)
}

// ChangeRequests finds a change request the caller can see, with their role on its space
// (changereq.Service does).
type ChangeRequests interface {
	GetWithSpace(ctx context.Context, c auth.Caller, spaceID, ref string) (space.View, changereq.View, error)
}

// Model answers one system and one user message (translate.LLM is one).
type Model interface {
	Complete(ctx context.Context, system, user string, retries int) (string, error)
}

// Service answers the agent conversation operations.
type Service struct {
	store Store
	orgs  Orgs
	crs   ChangeRequests
	clock clock.Clock
	log   *slog.Logger
	model Model // nil without a language model
}

// NewService returns the service.
func NewService(st Store, orgs Orgs, crs ChangeRequests, clk clock.Clock, log *slog.Logger) *Service {
	return &Service{store: st, orgs: orgs, crs: crs, clock: clk, log: log}
}

// UseModel lets the agent answer messages and title conversations with the model.
func (s *Service) UseModel(m Model) { s.model = m }

// Where names the context of a conversation: an organization, or a change request of a
// space (SpaceID and ChangeRequest set; ChangeRequest is its id or its number).
type Where struct {
	OrgID         string
	SpaceID       string
	ChangeRequest string
}

// place is a context the caller may use, resolved.
type place struct {
	orgID, scope string
	changeReq    *changereq.View // for a change request's conversations
}

func (w Where) kind() string {
	if w.SpaceID != "" {
		return "change request " + w.ChangeRequest
	}
	return "organization " + w.OrgID
}

// resolve checks the caller's access to the context: a member of the organization (not a
// guest) for its agent, anyone who sees the change request for its conversations; write also
// needs the edit role on the change request's space. Others get 404, or 403 when they see it.
func (s *Service) resolve(ctx context.Context, c auth.Caller, w Where, write bool) (place, error) {
	if w.SpaceID == "" {
		role, member, err := s.orgs.Role(ctx, c, w.OrgID)
		if err != nil {
			return place{}, err
		}
		if !member || c.UserID == "" {
			return place{}, apperr.NotFoundf("organization %s not found", w.OrgID)
		}
		if role == auth.Guest {
			return place{}, apperr.Forbiddenf("guests may not use the organization agent")
		}
		return place{orgID: w.OrgID, scope: UserScope(c.UserID)}, nil
	}
	v, cr, err := s.crs.GetWithSpace(ctx, c, w.SpaceID, w.ChangeRequest)
	if err != nil {
		return place{}, err
	}
	if write && !v.Role.AtLeast(auth.Edit) {
		return place{}, apperr.Forbiddenf("this needs the edit role on space %s (you have %s)", v.ID, v.Role)
	}
	return place{orgID: v.OrganizationID, scope: ChangeRequestScope(cr.ID), changeReq: &cr}, nil
}

// find returns a conversation the caller may see: 404 for one that is not there or is
// another user's private conversation.
func (s *Service) find(ctx context.Context, c auth.Caller, p place, id string) (Conversation, error) {
	conv, err := s.store.Get(ctx, p.orgID, p.scope, id)
	if err == nil && !conv.Shared && conv.CreatedBy != c.UserID {
		err = ErrNotFound
	}
	if errors.Is(err, ErrNotFound) {
		return conv, apperr.NotFoundf("conversation %s not found", id)
	}
	return conv, err
}

// List pages through the conversations the caller sees in the context, newest first.
func (s *Service) List(ctx context.Context, c auth.Caller, w Where, page paging.Request) (paging.Result[Conversation], error) {
	p, err := s.resolve(ctx, c, w, false)
	if err != nil {
		return paging.Result[Conversation]{}, err
	}
	return s.store.List(ctx, p.orgID, p.scope, c.UserID, page)
}

// Provision readies an organization agent conversation for the caller. Nothing is recorded:
// a conversation is recorded by its first message, so one opened and left leaves no trace.
func (s *Service) Provision(ctx context.Context, c auth.Caller, w Where, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	_, err := s.resolve(ctx, c, w, false)
	return err
}

// Rename sets a conversation's title (1 to TitleMax characters, trimmed).
func (s *Service) Rename(ctx context.Context, c auth.Caller, w Where, id, title string) (Conversation, error) {
	title = strings.TrimSpace(title)
	if err := validate.First(validate.Text("title", title), validate.Length("title", title, 1, TitleMax)); err != nil {
		return Conversation{}, err
	}
	p, err := s.resolve(ctx, c, w, true)
	if err != nil {
		return Conversation{}, err
	}
	conv, err := s.find(ctx, c, p, id)
	if err != nil {
		return conv, err
	}
	conv, err = s.store.Rename(ctx, conv.Key, title, s.clock.Now())
	if errors.Is(err, ErrNotFound) {
		return conv, apperr.NotFoundf("conversation %s not found", id)
	}
	return conv, err
}

// Delete removes a conversation with its messages.
func (s *Service) Delete(ctx context.Context, c auth.Caller, w Where, id string) error {
	p, err := s.resolve(ctx, c, w, true)
	if err != nil {
		return err
	}
	conv, err := s.find(ctx, c, p, id)
	if err != nil {
		return err
	}
	err = s.store.Delete(ctx, conv.Key, s.clock.Now())
	if errors.Is(err, ErrNotFound) {
		return apperr.NotFoundf("conversation %s not found", id)
	}
	return err
}

// Messages pages through a conversation's messages, oldest first.
func (s *Service) Messages(ctx context.Context, c auth.Caller, w Where, id string, page paging.Request) (Conversation, paging.Result[Message], error) {
	p, err := s.resolve(ctx, c, w, false)
	if err != nil {
		return Conversation{}, paging.Result[Message]{}, err
	}
	conv, err := s.find(ctx, c, p, id)
	if err != nil {
		return conv, paging.Result[Message]{}, err
	}
	res, err := s.store.Messages(ctx, conv.Key, page)
	return conv, res, err
}

func checkID(id string) error {
	if !idRe.MatchString(id) {
		return apperr.Invalidf("conversationId: 1 to %d letters, digits, '.', '_', '~' or '-' (got %q)", IDMax, id)
	}
	return nil
}

// Send is one message a user sends.
type Send struct {
	Content string
	Shared  *bool // the first message of a change request's conversation may make it private
}

// Send adds the caller's message to a conversation, recording the conversation if this is
// its first message. With a model the agent answers (its reply is stored after the message)
// and a new conversation gets a title from the model; without one there is no reply, and the
// title is the first message's opening words. A model that fails answers 502, with nothing
// written.
func (s *Service) Send(ctx context.Context, c auth.Caller, w Where, id string, in Send) (Conversation, []Message, error) {
	if err := checkID(id); err != nil {
		return Conversation{}, nil, err
	}
	if strings.TrimSpace(in.Content) == "" {
		return Conversation{}, nil, apperr.Invalidf("markdown: must not be empty (1 to %d characters)", MessageMax)
	}
	if err := validate.First(validate.Text("markdown", in.Content), validate.Length("markdown", in.Content, 1, MessageMax)); err != nil {
		return Conversation{}, nil, err
	}
	p, err := s.resolve(ctx, c, w, true)
	if err != nil {
		return Conversation{}, nil, err
	}
	if cr := p.changeReq; cr != nil && (cr.Status == changereq.Merged || cr.Status == changereq.Archived) {
		return Conversation{}, nil, apperr.Conflictf("change request %s is %s: its conversations take no new messages", w.ChangeRequest, cr.Status)
	}
	conv, err := s.find(ctx, c, p, id)
	isNew := apperr.Is(err, apperr.NotFound)
	if err != nil && !isNew {
		return conv, nil, err
	}
	shared := p.changeReq != nil
	switch {
	case in.Shared == nil:
	case isNew && p.changeReq == nil && *in.Shared:
		return conv, nil, apperr.Invalidf("shared: an organization agent conversation is private to its creator")
	case isNew && !*in.Shared && id == DefaultID:
		return conv, nil, apperr.Invalidf("shared: a change request's default conversation is shared with everyone who sees the change request")
	case isNew:
		shared = *in.Shared
	case *in.Shared != conv.Shared:
		return conv, nil, apperr.Invalidf("shared: chosen by a conversation's first message, it cannot change (it is %t)", conv.Shared)
	}
	if isNew {
		// A private conversation of someone else's with this id hides as a missing one; the
		// store refuses to take it over.
		conv = Conversation{Key: ids.New(), OrgID: p.orgID, Scope: p.scope, ID: id, CreatedBy: c.UserID, Shared: shared}
	}
	var history []Message
	if !isNew && s.model != nil {
		if history, err = s.store.Recent(ctx, conv.Key, historyMessages); err != nil {
			return conv, nil, err
		}
	}
	now := s.clock.Now()
	a := Append{New: isNew, Start: conv, Messages: []Message{{ID: ids.New(), Role: RoleUser, Author: c.UserID, Content: in.Content, CreatedAt: now}}}
	if conv.Title == "" {
		a.Title = s.title(ctx, in.Content)
	}
	if s.model != nil {
		reply, err := s.reply(ctx, p, history, in.Content)
		if err != nil {
			return conv, nil, err
		}
		a.Messages = append(a.Messages, Message{ID: ids.New(), Role: RoleAssistant, Content: reply, CreatedAt: s.clock.Now()})
	}
	stored, msgs, err := s.store.Append(ctx, a, s.clock.Now())
	if errors.Is(err, ErrNotFound) {
		return conv, nil, apperr.NotFoundf("conversation %s not found", id)
	}
	return stored, msgs, err
}

// historyMessages bounds the earlier messages the model is shown; historyChars bounds
// their length (the latest are kept).
const (
	historyMessages = 40
	historyChars    = 48000
)

// modelRetries bounds the retries of one call to the model.
const modelRetries = 1

// modelCall bounds one answer of the model, retries included.
const modelCall = 2 * time.Minute

const replySystem = `You are the documentation agent of docsd, a documentation platform. You help the user
write, organize and improve their organization's documentation. Answer the user's last message
in markdown, concisely and accurately; say so when you do not know.`

// reply asks the model to answer the conversation's last message.
func (s *Service) reply(ctx context.Context, p place, history []Message, content string) (string, error) {
	system := replySystem
	if cr := p.changeReq; cr != nil {
		system += "\nThe conversation is about change request #" + strconv.FormatInt(cr.Number, 10)
		if cr.Subject != "" {
			system += " (" + cr.Subject + ")"
		}
		system += ", a draft of changes to a space's content."
	}
	ctx, cancel := context.WithTimeout(ctx, modelCall)
	defer cancel()
	out, err := s.model.Complete(ctx, system, transcript(history, content), modelRetries)
	out = strings.TrimSpace(out)
	if err == nil && out == "" {
		err = errors.New("an empty answer")
	}
	if err != nil {
		s.log.Warn("agent conversation: the language model did not answer", "err", err)
		return "", apperr.New(apperr.BadGateway, "the language model did not answer; nothing was recorded, send the message again")
	}
	if utf8.RuneCountInString(out) > MessageMax {
		out = string([]rune(out)[:MessageMax])
	}
	return out, nil
}

// transcript is the conversation so far, as the model reads it: the latest earlier
// messages that fit historyChars, then the new one.
func transcript(history []Message, content string) string {
	var parts []string
	n := 0
	for i := len(history) - 1; i >= 0; i-- {
		m := history[i]
		who := "User"
		if m.Role == RoleAssistant {
			who = "Assistant"
		}
		line := who + ": " + m.Content
		if n += len(line); n > historyChars {
			break
		}
		parts = append([]string{line}, parts...)
	}
	if len(parts) == 0 {
		return content
	}
	return "The conversation so far:\n\n" + strings.Join(parts, "\n\n") + "\n\nThe user's new message:\n\n" + content
}

const titleSystem = `Write a title of at most eight words for a conversation that starts with the user's message.
Answer with the title alone: no quotes, no final period.`

// title names a new conversation: the model's title, or the first words of its first message
// without a model or when the model fails.
func (s *Service) title(ctx context.Context, first string) string {
	if s.model != nil {
		ctx, cancel := context.WithTimeout(ctx, modelCall)
		defer cancel()
		out, err := s.model.Complete(ctx, titleSystem, first, modelRetries)
		if t := cleanTitle(out); err == nil && t != "" {
			return t
		}
		s.log.Warn("agent conversation: the language model made no title; using the first words", "err", err)
	}
	return openingWords(first)
}

// titleWords and titleChars bound a title made of a message's opening words.
const (
	titleWords = 8
	titleChars = 80
)

// openingWords is the start of a message as a title: its first words, up to titleWords
// words and titleChars characters, with "…" when the message goes on.
func openingWords(s string) string {
	words := strings.Fields(s)
	var b strings.Builder
	n := 0
	for i, w := range words {
		if i == 0 && utf8.RuneCountInString(w) > titleChars-1 {
			return string([]rune(w)[:titleChars-1]) + "…"
		}
		if i == titleWords || n+utf8.RuneCountInString(w)+1 > titleChars-1 { // room for "…"
			return strings.TrimRight(b.String(), ",;:") + "…"
		}
		if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += utf8.RuneCountInString(w)
	}
	return b.String()
}

// cleanTitle keeps the first line of a model's title, without quotes or a final period.
func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "\"'`*#"))
	s = strings.TrimSuffix(s, ".")
	if utf8.RuneCountInString(s) > TitleMax {
		s = string([]rune(s)[:TitleMax])
	}
	if !validate.IsText(s) {
		return ""
	}
	return s
}
