package jobs

// Self and ProcessStart let the tests write job_owners rows as other processes would.
var (
	Self         = self
	ProcessStart = processStart
)
