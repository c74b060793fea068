package wire

// APIInformation is the GitBook ApiInformation object: which build answers.
type APIInformation struct {
	Version string `json:"version"` // release version, with the VCS commit as build metadata when known
	Build   string `json:"build"`   // the build's date, ISO 8601
}
