package markdoc

var hintStyles = map[string]bool{"info": true, "warning": true, "danger": true, "success": true}

// tag converts one of GitBook's block tags to its block.
func (c *converter) tag(t *tagBlock) []*Node {
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
	}
	return c.blocks(t)
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
