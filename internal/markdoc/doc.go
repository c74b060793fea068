// Package markdoc reads the markdown of a page, which is the source of truth for its content,
// and derives from it what the rest of docsd needs: the block tree the API answers for
// format=document (ToDocument), sanitized HTML for published sites (ToHTML), the page split at
// its headings for the search index (Sections), the links and images it refers to (Links), and
// its YAML front matter (ParseFrontMatter), which the others ignore.
//
// The markdown dialect is CommonMark with GitHub's extensions (tables, strikethrough, task
// lists, bare URLs), footnotes, `{#id}` heading attributes, `$$` math, and the block tags of
// GitBook's markdown exports: `{% hint %}`, `{% code %}`, `{% embed %}`, `{% tabs %}`/`{% tab %}`,
// `{% content-ref %}`, `{% file %}` and `{% stepper %}`/`{% step %}`. Tags it does not know stay
// in the text as written.
//
// Every function here is pure, safe for concurrent use, and never fails: any input is some
// markdown.
package markdoc
