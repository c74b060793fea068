package richtext

// The node types below are those of the public GitBook API schemas DocumentBlock*,
// DocumentInline*, DocumentText and DocumentMark*.

// content says what a node holds in `nodes`.
type content int

const (
	holdsBlocks  content = iota // block nodes
	holdsInlines                // inline and text nodes
	holdsNothing                // a void node: at most empty text nodes
)

type blockSpec struct {
	content content
	// children, when set, are the only block types allowed in nodes (lists hold list items).
	children []string
	// inlines, when set, are the only inline types allowed in nodes (code lines).
	inlines []string
	// parents, when set, are the only blocks this one may appear in (a list item in a list).
	parents []string
	// fragments: the node carries `fragments` (table cells, captions, expandable bodies).
	fragments bool
}

var lists = []string{"list-ordered", "list-unordered", "list-tasks"}

var blockSpecs = map[string]blockSpec{
	"paragraph":         {content: holdsInlines},
	"heading-1":         {content: holdsInlines},
	"heading-2":         {content: holdsInlines},
	"heading-3":         {content: holdsInlines},
	"list-ordered":      {content: holdsBlocks, children: []string{"list-item"}},
	"list-unordered":    {content: holdsBlocks, children: []string{"list-item"}},
	"list-tasks":        {content: holdsBlocks, children: []string{"list-item"}},
	"list-item":         {content: holdsBlocks, parents: lists},
	"divider":           {content: holdsNothing},
	"blockquote":        {content: holdsBlocks},
	"hint":              {content: holdsBlocks},
	"if":                {content: holdsBlocks},
	"images":            {content: holdsBlocks, children: []string{"image"}},
	"image":             {content: holdsNothing, parents: []string{"images"}, fragments: true},
	"file":              {content: holdsNothing},
	"drawing":           {content: holdsNothing},
	"embed":             {content: holdsNothing},
	"code":              {content: holdsBlocks, children: []string{"code-line"}},
	"code-line":         {content: holdsInlines, parents: []string{"code"}, inlines: []string{"annotation", "expression"}},
	"math":              {content: holdsNothing},
	"expandable":        {content: holdsNothing, fragments: true},
	"tabs":              {content: holdsBlocks, children: []string{"tabs-item"}},
	"tabs-item":         {content: holdsBlocks, parents: []string{"tabs"}},
	"table":             {content: holdsNothing, fragments: true},
	"swagger":           {content: holdsNothing},
	"openapi-operation": {content: holdsNothing},
	"openapi-schemas":   {content: holdsNothing},
	"openapi-webhook":   {content: holdsNothing},
	"content-ref":       {content: holdsNothing},
	"integration":       {content: holdsNothing},
	"reusable-content":  {content: holdsNothing},
	"stepper":           {content: holdsBlocks, children: []string{"stepper-step"}},
	"stepper-step":      {content: holdsBlocks, parents: []string{"stepper"}},
	"columns":           {content: holdsBlocks, children: []string{"column"}},
	"column":            {content: holdsBlocks, parents: []string{"columns"}},
}

type inlineSpec struct {
	content content // holdsInlines or holdsNothing
	// inlines are the inline types allowed in nodes besides text.
	inlines   []string
	fragments bool
}

var inlineSpecs = map[string]inlineSpec{
	"link":         {content: holdsInlines, inlines: []string{"inline-image"}},
	"annotation":   {content: holdsInlines, inlines: []string{}, fragments: true},
	"emoji":        {content: holdsNothing},
	"icon":         {content: holdsNothing},
	"expression":   {content: holdsNothing},
	"inline-math":  {content: holdsNothing},
	"inline-image": {content: holdsNothing},
	"mention":      {content: holdsNothing},
	"button":       {content: holdsNothing},
}

var markTypes = map[string]bool{
	"bold": true, "italic": true, "code": true, "keyboard": true, "strikethrough": true,
	"color": true, "superscript": true, "subscript": true,
}

// Fields each kind of object may carry.
var (
	documentFields = set("object", "data", "nodes")
	nodeFields     = set("object", "type", "key", "nodes", "isVoid", "data", "meta", "fragments")
	textFields     = set("object", "key", "leaves")
	leafFields     = set("object", "text", "marks")
	markFields     = set("object", "type", "data")
	fragmentFields = set("object", "key", "fragment", "type", "nodes")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
