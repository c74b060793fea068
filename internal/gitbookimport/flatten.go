package gitbookimport

import "strconv"

// flatten lists the tree depth first, setting each page's parent and order, and making slugs
// unique among siblings ("setup", "setup-2", ...) so that every page has its own path.
func flatten(roots []*node) []Page {
	var out []Page
	var visit func(siblings []*node, parent int)
	visit = func(siblings []*node, parent int) {
		taken := map[string]bool{}
		for order, n := range siblings {
			p := n.page
			p.Parent, p.Order = parent, order
			if p.Slug != "" {
				base := p.Slug
				for i := 2; taken[p.Slug]; i++ {
					p.Slug = base + "-" + strconv.Itoa(i)
				}
				taken[p.Slug] = true
			}
			out = append(out, p)
			visit(n.children, len(out)-1)
		}
	}
	visit(roots, -1)
	return out
}
