package comment

import (
	"bytes"
	"context"
	"encoding/json"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
	"docsd/internal/markdoc"
	"docsd/internal/validate"
)

// checkTargetShape checks what a new comment's target names before anything is read: ids
// within bounds, a node only with its page, and a table cell only with its table's node.
func checkTargetShape(in Post) error {
	fields := map[string]string{"page": in.Page, "node": in.Node}
	if in.TableCell != nil {
		fields["tableCell.record"], fields["tableCell.definition"] = in.TableCell.Record, in.TableCell.Definition
	}
	for field, v := range fields {
		if err := validate.Length(field, v, 0, IDMax); err != nil {
			return err
		}
	}
	if in.Node != "" && in.Page == "" {
		return apperr.Invalidf("node: needs page, the id of the page that holds block %s", in.Node)
	}
	if in.TableCell != nil {
		if in.TableCell.Record == "" || in.TableCell.Definition == "" {
			return apperr.Invalidf("tableCell: needs both record and definition")
		}
		if in.Node == "" {
			return apperr.Invalidf("tableCell: needs node, the id of the table block that holds the cell")
		}
	}
	return nil
}

// target checks that the page, block and table cell of a new comment exist in the revision
// it is posted on, and returns its target.
func (s *Service) target(ctx context.Context, revision string, in Post) (Target, error) {
	t := Target{Revision: revision, Page: in.Page, Node: in.Node}
	if in.TableCell != nil {
		t.TableRecord, t.TableDefinition = in.TableCell.Record, in.TableCell.Definition
	}
	if in.Page == "" {
		return t, nil
	}
	page, err := s.content.Page(ctx, revision, in.Page)
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Code == apperr.NotFound {
			return t, apperr.Invalidf("page: page %s not found in revision %s", in.Page, revision)
		}
		return t, err
	}
	if in.Node == "" {
		return t, nil
	}
	if page.Kind != contenttree.KindDocument {
		return t, apperr.Invalidf("node: page %s is a %s page, which has no blocks", in.Page, page.Kind)
	}
	block := findBlock(markdoc.ToDocument(page.Markdown).Nodes, in.Node)
	if block == nil {
		return t, apperr.Invalidf("node: no block %s in page %s of revision %s", in.Node, in.Page, revision)
	}
	if in.TableCell != nil && !hasCell(block, in.TableCell.Record, in.TableCell.Definition) {
		return t, apperr.Invalidf("tableCell: block %s has no cell at record %q and definition %q",
			in.Node, in.TableCell.Record, in.TableCell.Definition)
	}
	return t, nil
}

// findBlock finds the block keyed key among nodes, their children and their fragments.
func findBlock(nodes []*markdoc.Node, key string) *markdoc.Node {
	for _, n := range nodes {
		if n.Object != markdoc.ObjectBlock {
			continue
		}
		if n.Key == key {
			return n
		}
		if b := findBlock(n.Nodes, key); b != nil {
			return b
		}
		for _, f := range n.Fragments {
			if b := findBlock(f.Nodes, key); b != nil {
				return b
			}
		}
	}
	return nil
}

// hasCell says whether a table block has a record (row) with a value for the definition
// (column).
func hasCell(table *markdoc.Node, record, definition string) bool {
	if table.Type != "table" {
		return false
	}
	records, _ := table.Data["records"].(map[string]any)
	rec, _ := records[record].(map[string]any)
	values, _ := rec["values"].(map[string]any)
	_, ok := values[definition]
	return ok
}

// BodyMarkdown reads a comment or reply body, `{"markdown": "..."}`. The API's other body
// shapes are refused by name: a JSON document would need a conversion back to markdown,
// which is what docsd keeps, and an empty body says nothing.
func BodyMarkdown(field string, raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", apperr.Invalidf("%s: is required, as {\"markdown\": \"...\"}", field)
	}
	var shape map[string]json.RawMessage
	if err := json.Unmarshal(raw, &shape); err != nil {
		return "", apperr.Invalidf("%s: must be an object {\"markdown\": \"...\"}", field)
	}
	for k := range shape {
		switch k {
		case "markdown":
		case "document":
			return "", apperr.Invalidf("%s.document: documents are not accepted here; send the body as %s.markdown", field, field)
		default:
			return "", apperr.Invalidf("%s.%s: unknown field (a body is {\"markdown\": \"...\"})", field, k)
		}
	}
	md, ok := shape["markdown"]
	if !ok {
		return "", apperr.Invalidf("%s.markdown: is required (1 to %d characters)", field, BodyMax)
	}
	var text string
	if err := json.Unmarshal(md, &text); err != nil {
		return "", apperr.Invalidf("%s.markdown: must be a string", field)
	}
	return text, checkBody(field+".markdown", text)
}
