package wire

// PDFLink is the answer to a PDF request: a temporary URL of the document.
type PDFLink struct {
	URL string `json:"url"`
}
