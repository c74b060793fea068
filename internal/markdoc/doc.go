// Package markdoc reads the markdown of a page, which is the source of truth for its content,
// and derives from it what the rest of docsd needs: the block tree the API answers for
// format=document (ToDocument), sanitized HTML for published sites (ToHTML), the page split at
// its headings for the search index (Sections), the links and images it refers to (Links), and
// its YAML front matter (ParseFrontMatter), which the others ignore.
//
// The markdown dialect is CommonMark with GitHub's extensions (tables, strikethrough, task
// lists, bare URLs), footnotes, `{#id}` heading attributes, `$$` math, and the block tags of
// GitBook's markdown exports: `{% hint %}`, `{% code %}`, `{% embed %}`, `{% tabs %}`/`{% tab %}`,
// `{% content-ref %}`, `{% file %}`, `{% stepper %}`/`{% step %}`, `{% columns %}`/`{% column %}`,
// `{% updates %}`/`{% update %}`, `{% if %}`, `{% include %}` (reusable content, expanded by
// ExpandIncludes), `{% prompt %}`, `{% openapi-operation %}`, `{% openapi-schemas %}`,
// `{% openapi-webhook %}` and the older `{% swagger %}`/`{% openapi %}`. A tag it does not know
// is taken off the page and its content shown (UnknownTags lists them), so no raw tag text
// reaches a reader.
//
// Every function here is pure, safe for concurrent use, and never fails: any input is some
// markdown.
package markdoc
