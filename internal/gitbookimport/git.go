package gitbookimport

import (
	"crypto/sha1"
	"encoding/hex"
	"io/fs"
	"strconv"

	"go.yaml.in/yaml/v3"

	"docsd/internal/markdoc"
)

// GitBlobID is the id Git gives a file of these bytes: the SHA-1 of a "blob <size>\0" header
// and the bytes. An archive's files get the same ids as the repository they came from.
func GitBlobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// varsFile holds the space's variables in GitBook's layout: a mapping, at the top level or
// under `vars:`.
const varsFile = ".gitbook/vars.yaml"

// readVariables reads the space's variables, warning about a file that is not a mapping.
func (im *importer) readVariables() {
	raw, err := fs.ReadFile(im.fsys, varsFile)
	if err != nil {
		return
	}
	var y map[string]any
	if err := yaml.Unmarshal(raw, &y); err != nil {
		im.warnf("%s: not valid YAML, ignored: %v", varsFile, err)
		return
	}
	if inner, ok := y["vars"].(map[string]any); ok && len(y) == 1 {
		y = inner
	}
	im.result.Variables = markdoc.Variables(y)
}
