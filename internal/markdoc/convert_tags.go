package markdoc

import "strings"

var hintStyles = map[string]bool{"info": true, "warning": true, "danger": true, "success": true}

// tag converts one of GitBook's block tags to its block.
func (c *converter) tag(t *tagBlock) []*Node {
	if containerTags[t.Name] && !t.container {
		return nil // an opening line never closed: only the line is dropped
	}
	if name, blk, ok := IntegrationTag(t.Name); ok {
		return []*Node{block("integration", map[string]any{"integration": name, "block": blk, "props": IntegrationProps(t.Attrs)})}
	}
	switch t.Name {
	case "hint":
		style := t.Attrs["style"]
		if !hintStyles[style] {
			style = "info"
		}
		return []*Node{block("hint", map[string]any{"style": style}, nonEmpty(fit(c.blocks(t), hintChildren))...)}
	case "tabs":
		return []*Node{c.items(t, "tabs", "tab", c.tab)}
	case "tab":
		return []*Node{block("tabs", nil, c.tab(t))}
	case "stepper":
		return []*Node{c.items(t, "stepper", "step", c.step)}
	case "step":
		return []*Node{block("stepper", nil, c.step(t))}
	case "code":
		return c.codeTag(t)
	case "embed":
		return c.embed(t)
	case "file":
		return c.file(t)
	case "content-ref":
		return c.contentRef(t)
	case "columns":
		return c.columns(t)
	case "column":
		return c.columns(&tagBlock{Name: "columns", Attrs: map[string]string{}})
	case "updates":
		return c.blocks(t)
	case "update":
		return c.update(t)
	case "if":
		return c.ifBlock(t)
	case "include":
		return c.include(t)
	case "openapi-operation", "openapi-schemas", "openapi-webhook":
		return c.openAPI(t)
	case "openapi", "swagger":
		return c.swagger(t)
	}
	// A tag without a block of its own (prompt, the parts of a swagger block, a tag docsd
	// does not know) shows what it holds.
	return c.blocks(t)
}

// columns converts {% columns %}{% column width="50%" %}...{% endcolumn %}{% endcolumns %}.
// Where the schema does not let columns stand (the public API's top level, in 0.146), they
// become their columns' content, one after the other.
func (c *converter) columns(t *tagBlock) []*Node {
	n := block("columns", map[string]any{})
	if v, ok := boolAttr(t, "fullWidth"); ok {
		n.Data["fullWidth"] = v
	}
	var fallback []*Node
	for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
		tb, ok := ch.(*tagBlock)
		if !ok || tb.Name != "column" {
			fallback = append(fallback, c.block(ch)...)
			continue
		}
		nodes := c.blocks(tb)
		fallback = append(fallback, nodes...)
		n.Nodes = append(n.Nodes, block("column", map[string]any{}, nonEmpty(fit(nodes, columnChildren))...))
	}
	if len(n.Nodes) == 0 {
		return fallback
	}
	n.fallback = nonEmpty(fallback)
	return []*Node{n}
}

// update converts one entry of a changelog ({% update date="2024-05-01" tags="api" %}); the
// public API of 0.146 has no updates block, so an entry is its date (and tags) in bold
// followed by its content.
func (c *converter) update(t *tagBlock) []*Node {
	label := t.Attrs["date"]
	if tags := t.Attrs["tags"]; tags != "" {
		if label != "" {
			label += " · "
		}
		label += tags
	}
	var out []*Node
	if label != "" {
		out = append(out, paragraph(textNode(Leaf{Text: label, Marks: []Mark{{Type: "bold"}}})))
	}
	return append(out, c.blocks(t)...)
}

// ifBlock converts adaptive content ({% if visitor.claims.plan == "pro" %}...{% endif %}) to
// the if block, which shows its content where its expression holds; where the schema does
// not let it stand, its content shows unconditionally.
func (c *converter) ifBlock(t *tagBlock) []*Node {
	nodes := c.blocks(t)
	if strings.TrimSpace(t.Arg) == "" {
		return nodes
	}
	n := block("if", map[string]any{"expression": t.Arg}, nonEmpty(fit(nodes, topLevel))...)
	n.fallback = nonEmpty(nodes)
	return []*Node{n}
}

// include converts {% include "../.gitbook/includes/x.md" %} to a reusable-content block
// when Options.ReusableContent names the reusable content the path points at; otherwise it
// shows nothing, as GitBook does for an include it cannot find.
func (c *converter) include(t *tagBlock) []*Node {
	if c.opts.ReusableContent == nil || t.Arg == "" {
		return nil
	}
	id := c.opts.ReusableContent(t.Arg)
	if id == "" {
		return nil
	}
	return []*Node{block("reusable-content", map[string]any{"ref": Ref{Kind: "reusable-content", ReusableContent: id}})}
}

// openAPI converts the blocks that show part of an OpenAPI specification the space holds,
// named by its slug: {% openapi-operation spec="petstore" path="/pets" method="get" %},
// {% openapi-schemas spec="petstore" schemas="Pet,Tag" grouped="true" %} and
// {% openapi-webhook spec="petstore" name="newPet" method="post" %}. The link GitBook writes
// inside for other readers is what shows where the block cannot.
func (c *converter) openAPI(t *tagBlock) []*Node {
	inner := c.blocks(t)
	spec := t.Attrs["spec"]
	if spec == "" {
		return inner
	}
	data := map[string]any{"ref": Ref{Kind: "openapi", Spec: spec}}
	var id string
	switch t.Name {
	case "openapi-operation":
		if t.Attrs["path"] == "" || t.Attrs["method"] == "" {
			return inner
		}
		data["path"], data["method"] = t.Attrs["path"], strings.ToLower(t.Attrs["method"])
		id = "operation-" + data["method"].(string) + "-" + Slugify(t.Attrs["path"])
	case "openapi-schemas":
		schemas := []any{}
		for _, name := range strings.Split(t.Attrs["schemas"], ",") {
			if name = strings.TrimSpace(name); name != "" {
				schemas = append(schemas, name)
			}
		}
		if len(schemas) == 0 {
			return inner
		}
		data["schemas"] = schemas
		if v, ok := boolAttr(t, "grouped"); ok {
			data["grouped"] = v
		}
		id = "schemas-" + Slugify(t.Attrs["schemas"])
	case "openapi-webhook":
		if t.Attrs["name"] == "" || t.Attrs["method"] == "" {
			return inner
		}
		data["name"], data["method"] = t.Attrs["name"], strings.ToLower(t.Attrs["method"])
		id = "webhook-" + data["method"].(string) + "-" + Slugify(t.Attrs["name"])
	}
	n := block(t.Name, data)
	n.Meta = map[string]any{"id": id}
	n.fallback = nonEmpty(inner)
	return []*Node{n}
}

// swagger converts the older {% swagger src="spec.yaml" path="/pets" method="get" %} (and
// {% openapi %}, its later name), which points at a specification by URL or file, to the
// swagger block; the description, parameters and responses written inside are what shows
// where the block cannot.
func (c *converter) swagger(t *tagBlock) []*Node {
	inner := c.blocks(t)
	src, path, method := t.Attrs["src"], t.Attrs["path"], strings.ToLower(t.Attrs["method"])
	if src == "" || path == "" || method == "" {
		return inner
	}
	ref := c.ref(src)
	if ref.Kind != "file" {
		ref = Ref{Kind: "url", URL: src}
	}
	data := map[string]any{"ref": ref, "path": path, "method": method}
	if v, ok := boolAttr(t, "expanded"); ok {
		data["expanded"] = v
	}
	n := block("swagger", data)
	n.Meta = map[string]any{"id": "operation-" + method + "-" + Slugify(path)}
	n.fallback = nonEmpty(inner)
	return []*Node{n}
}

// items converts a tabs or stepper tag: each child tag named item becomes an item; content
// between items joins the item before it (or an untitled first item).
func (c *converter) items(t *tagBlock, typ, item string, convert func(*tagBlock) *Node) *Node {
	node := block(typ, nil)
	for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if tb, ok := ch.(*tagBlock); ok && tb.Name == item {
			node.Nodes = append(node.Nodes, convert(tb))
			continue
		}
		stray := c.block(ch)
		if len(stray) == 0 {
			continue
		}
		if len(node.Nodes) == 0 {
			node.Nodes = append(node.Nodes, convert(&tagBlock{Name: item, Attrs: map[string]string{}}))
		}
		last := node.Nodes[len(node.Nodes)-1]
		last.Nodes = nonEmpty(fit(append(withoutEmptyParagraphs(last.Nodes), stray...), itemChildren[typ]))
	}
	if len(node.Nodes) == 0 {
		node.Nodes = []*Node{convert(&tagBlock{Name: item, Attrs: map[string]string{}})}
	}
	return node
}

var itemChildren = map[string]map[string]bool{"tabs": tabsItemChildren, "stepper": stepChildren}

func (c *converter) tab(t *tagBlock) *Node {
	return block("tabs-item", map[string]any{"title": t.Attrs["title"]}, nonEmpty(fit(c.blocks(t), tabsItemChildren))...)
}

func (c *converter) step(t *tagBlock) *Node {
	return block("stepper-step", nil, nonEmpty(fit(c.blocks(t), stepChildren))...)
}

// codeTag applies {% code title="..." overflow="wrap" lineNumbers="true" %} to the code
// blocks it wraps.
func (c *converter) codeTag(t *tagBlock) []*Node {
	nodes := c.blocks(t)
	for _, n := range nodes {
		if n.Type != "code" {
			continue
		}
		if title := t.Attrs["title"]; title != "" {
			n.Data["title"] = title
		}
		if o := t.Attrs["overflow"]; o == "wrap" || o == "scroll" {
			n.Data["overflow"] = o
		}
		for _, name := range []string{"lineNumbers", "fullWidth", "expandable"} {
			if v, ok := boolAttr(t, name); ok {
				n.Data[name] = v
			}
		}
	}
	return nodes
}

func boolAttr(t *tagBlock, name string) (value, ok bool) {
	switch t.Attrs[name] {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// embed converts {% embed url="..." %}; a caption written before {% endembed %} follows the
// embed as its own blocks, since the embed block has no caption.
func (c *converter) embed(t *tagBlock) []*Node {
	caption := c.blocks(t)
	url := t.Attrs["url"]
	if url == "" {
		return caption
	}
	data := map[string]any{"url": url}
	if v, ok := boolAttr(t, "fullWidth"); ok {
		data["fullWidth"] = v
	}
	n := block("embed", data)
	n.fallback = []*Node{paragraph(plainText(""), inline("link", map[string]any{"ref": Ref{Kind: "url", URL: url}}, plainText(url)), plainText(""))}
	return append([]*Node{n}, caption...)
}

// file converts {% file src="..." %}caption{% endfile %}. A file block must point at a file
// of the space; a src that Options.Ref does not resolve to one becomes a link.
func (c *converter) file(t *tagBlock) []*Node {
	caption := c.blocks(t)
	src := t.Attrs["src"]
	if src == "" {
		return caption
	}
	ref := c.ref(src)
	label := src
	if len(caption) > 0 {
		if s := nodeText(caption[0]); s != "" {
			label = s
			caption = caption[1:]
		}
	}
	link := paragraph(plainText(""), inline("link", map[string]any{"ref": ref}, plainText(label)), plainText(""))
	if ref.Kind != "file" {
		return append([]*Node{link}, caption...)
	}
	n := block("file", map[string]any{"ref": ref})
	n.fallback = []*Node{link}
	return append([]*Node{n}, caption...)
}

// contentRef converts {% content-ref url="page.md" %}; the link GitBook repeats inside it
// for other markdown readers is dropped.
func (c *converter) contentRef(t *tagBlock) []*Node {
	url := t.Attrs["url"]
	if url == "" {
		return c.blocks(t)
	}
	ref := c.ref(url)
	n := block("content-ref", map[string]any{"ref": ref})
	n.fallback = c.blocks(t)
	if len(n.fallback) == 0 {
		n.fallback = []*Node{paragraph(plainText(""), inline("link", map[string]any{"ref": ref}, plainText(url)), plainText(""))}
	}
	return []*Node{n}
}

// nonEmpty gives a container that must hold blocks an empty paragraph when it has none.
func nonEmpty(nodes []*Node) []*Node {
	if len(nodes) == 0 {
		return []*Node{paragraph(plainText(""))}
	}
	return nodes
}

func withoutEmptyParagraphs(nodes []*Node) []*Node {
	var out []*Node
	for _, n := range nodes {
		if n.Type == "paragraph" && isEmptyInlines(n.Nodes) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// IntegrationProps are the props of an integration block's tag: its attributes, strings as
// written.
func IntegrationProps(attrs map[string]string) map[string]any {
	props := make(map[string]any, len(attrs))
	for k, v := range attrs {
		props[k] = v
	}
	return props
}
