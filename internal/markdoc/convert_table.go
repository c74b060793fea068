package markdoc

import (
	"fmt"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// table converts a GFM table to the API's table block: a text column definition per column
// (titled by the header cell's text), a record per row, and for each cell a fragment holding
// its content as a paragraph, named by the value the record holds for that column.
//
// Column, record and cell ids are positional ("c0", "r0", "r0c0"): they are names inside one
// table block, so they need not be unique in the page.
func (c *converter) table(t *east.Table) *Node {
	var header ast.Node
	var rows []ast.Node
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		if _, ok := r.(*east.TableHeader); ok {
			header = r
		} else {
			rows = append(rows, r)
		}
	}
	columns := []any{}
	definition := map[string]any{}
	col := 0
	if header != nil {
		for cell := header.FirstChild(); cell != nil; cell = cell.NextSibling() {
			id := fmt.Sprintf("c%d", col)
			align := "left"
			if col < len(t.Alignments) {
				switch t.Alignments[col] {
				case east.AlignCenter:
					align = "center"
				case east.AlignRight:
					align = "right"
				}
			}
			columns = append(columns, id)
			definition[id] = map[string]any{
				"id": id, "title": collapseSpace(inlineText(cell, c.src)), "type": "text", "textAlignment": align,
			}
			col++
		}
	}
	records := map[string]any{}
	node := block("table", nil)
	node.Fragments = []*Fragment{}
	for i, row := range rows {
		rowID := fmt.Sprintf("r%d", i)
		values := map[string]any{}
		j := 0
		for cell := row.FirstChild(); cell != nil && j < col; cell = cell.NextSibling() {
			cellID := fmt.Sprintf("%sc%d", rowID, j)
			c.htmlMarks = nil
			values[fmt.Sprintf("c%d", j)] = cellID
			node.Fragments = append(node.Fragments, &Fragment{Fragment: cellID, Nodes: []*Node{paragraph(c.inlines(cell)...)}})
			j++
		}
		records[rowID] = map[string]any{"orderIndex": fmt.Sprintf("a%06d", i), "values": values}
	}
	node.Data = map[string]any{
		"view":       map[string]any{"type": "grid", "columns": columns, "hideHeader": false},
		"records":    records,
		"definition": definition,
	}
	return node
}
