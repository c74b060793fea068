package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/comment"
	"docsd/internal/wire"
)

// commentRoutes serves the same comment operations on a space and on a change request.
func (s *Server) commentRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/comments", s.listComments)
	s.handle("POST /v1/spaces/{spaceId}/comments", s.postComment)
	s.handle("GET /v1/spaces/{spaceId}/comments/{commentId}", s.getComment)
	s.handle("PUT /v1/spaces/{spaceId}/comments/{commentId}", s.updateComment)
	s.handle("DELETE /v1/spaces/{spaceId}/comments/{commentId}", s.deleteComment)
	s.handle("GET /v1/spaces/{spaceId}/comments/{commentId}/replies", s.listCommentReplies)
	s.handle("POST /v1/spaces/{spaceId}/comments/{commentId}/replies", s.postCommentReply)
	s.handle("GET /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", s.getCommentReply)
	s.handle("PUT /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", s.updateCommentReply)
	s.handle("DELETE /v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", s.deleteCommentReply)

	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", s.listComments)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", s.postComment)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", s.getComment)
	s.handle("PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", s.updateComment)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", s.deleteComment)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", s.listCommentReplies)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", s.postCommentReply)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", s.getCommentReply)
	s.handle("PUT /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", s.updateCommentReply)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", s.deleteCommentReply)
}

// commentScope is the space, and change request if the path names one.
func commentScope(r *http.Request) comment.Scope {
	return comment.Scope{SpaceID: r.PathValue("spaceId"), ChangeRequest: r.PathValue("changeRequestId")}
}

// commentFormat reads `format`: the body's format in the answer.
func commentFormat(r *http.Request) (string, error) {
	return queryEnum(r, "format", wire.CommentFormats[0], wire.CommentFormats...)
}

// commentFilter reads the list filters; ids are bounded so they cannot swell the cursor key.
func commentFilter(r *http.Request) (comment.Filter, filterKey, error) {
	var f comment.Filter
	order, err := queryEnum(r, "order", "desc", "asc", "desc")
	if err != nil {
		return f, nil, err
	}
	f.Ascending = order == "asc"
	status, err := queryEnum(r, "status", "all", "all", comment.Open, comment.Resolved)
	if err != nil {
		return f, nil, err
	}
	if status != "all" {
		f.Status = status
	}
	if f.Page, err = queryString(r, "targetPage", comment.IDMax); err != nil {
		return f, nil, err
	}
	f.Authors = queryList(r, "authors")
	if len(f.Authors) > comment.AuthorsMax {
		return f, nil, apperr.Invalidf("authors: at most %d user ids (got %d)", comment.AuthorsMax, len(f.Authors))
	}
	for _, a := range f.Authors {
		if len([]rune(a)) > comment.IDMax {
			return f, nil, apperr.Invalidf("authors: each user id must be at most %d characters", comment.IDMax)
		}
	}
	key := filterKey{order, status, f.Page}
	return f, append(key, f.Authors...), nil
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	f, key, err := commentFilter(r)
	if err != nil {
		return err
	}
	sc := commentScope(r)
	list := append(filterKey{"comments", sc.SpaceID, sc.ChangeRequest}, key...).String()
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Comments.List(r.Context(), c, sc, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(v comment.View) wire.Comment { return s.urls.FromComment(v, format) })
}

type tableCellBody struct {
	Record     string `json:"record"`
	Definition string `json:"definition"`
}

type postCommentBody struct {
	Node      string          `json:"node"`
	Page      string          `json:"page"`
	Body      json.RawMessage `json:"body"`
	TableCell *tableCellBody  `json:"tableCell"`
}

// postComment answers 200, as the API does for new comments.
func (s *Server) postComment(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	var body postCommentBody
	if err := decode(r, &body); err != nil {
		return err
	}
	md, err := comment.BodyMarkdown("body", body.Body)
	if err != nil {
		return err
	}
	in := comment.Post{Page: body.Page, Node: body.Node, Body: md}
	if body.TableCell != nil {
		in.TableCell = &comment.TableCell{Record: body.TableCell.Record, Definition: body.TableCell.Definition}
	}
	v, err := s.Comments.Post(r.Context(), c, commentScope(r), in)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromComment(v, format))
}

func (s *Server) getComment(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	v, err := s.Comments.Get(r.Context(), c, commentScope(r), r.PathValue("commentId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromComment(v, format))
}

type updateCommentBody struct {
	Resolved         *bool           `json:"resolved"`
	Body             json.RawMessage `json:"body"`
	AddedReactions   []string        `json:"addedReactions"`
	RemovedReactions []string        `json:"removedReactions"`
}

func (b updateCommentBody) update() (comment.Update, error) {
	u := comment.Update{Resolved: b.Resolved, AddedReactions: b.AddedReactions, RemovedReactions: b.RemovedReactions}
	if b.Body != nil {
		md, err := comment.BodyMarkdown("body", b.Body)
		if err != nil {
			return u, err
		}
		u.Body = &md
	}
	return u, nil
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	var body updateCommentBody
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := body.update()
	if err != nil {
		return err
	}
	v, err := s.Comments.Update(r.Context(), c, commentScope(r), r.PathValue("commentId"), u)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromComment(v, format))
}

func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Comments.Delete(r.Context(), c, commentScope(r), r.PathValue("commentId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listCommentReplies(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	sc := commentScope(r)
	commentID := r.PathValue("commentId")
	list := filterKey{"comment-replies", sc.SpaceID, sc.ChangeRequest, commentID}.String()
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Comments.ListReplies(r.Context(), c, sc, commentID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(v comment.ReplyView) wire.CommentReply { return s.urls.FromCommentReply(v, format) })
}

type postReplyBody struct {
	Body json.RawMessage `json:"body"`
}

func (s *Server) postCommentReply(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	var body postReplyBody
	if err := decode(r, &body); err != nil {
		return err
	}
	md, err := comment.BodyMarkdown("body", body.Body)
	if err != nil {
		return err
	}
	v, err := s.Comments.PostReply(r.Context(), c, commentScope(r), r.PathValue("commentId"), md)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCommentReply(v, format))
}

func (s *Server) getCommentReply(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	v, err := s.Comments.GetReply(r.Context(), c, commentScope(r), r.PathValue("commentId"), r.PathValue("commentReplyId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCommentReply(v, format))
}

func (s *Server) updateCommentReply(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	format, err := commentFormat(r)
	if err != nil {
		return err
	}
	var body updateCommentBody
	if err := decode(r, &body); err != nil {
		return err
	}
	u, err := body.update()
	if err != nil {
		return err
	}
	v, err := s.Comments.UpdateReply(r.Context(), c, commentScope(r), r.PathValue("commentId"),
		r.PathValue("commentReplyId"), u)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCommentReply(v, format))
}

func (s *Server) deleteCommentReply(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	err := s.Comments.DeleteReply(r.Context(), c, commentScope(r), r.PathValue("commentId"), r.PathValue("commentReplyId"))
	if err != nil {
		return err
	}
	return noContent(w)
}
