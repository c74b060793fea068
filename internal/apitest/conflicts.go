package apitest

import (
	"encoding/json"
	"fmt"
	"strconv"

	"docsd/internal/apispec"
)

// specConflict is one entry of api/openapi.yaml's x-docsd-spec-conflicts: an answer of
// operation that the reference version of the public spec requires and a newer version
// refuses. The reference wins, so the newer version does not judge that answer.
type specConflict struct {
	Version   string `json:"version"`   // the version that refuses the answer
	Operation string `json:"operation"` // its operationId
	Status    int    `json:"status"`    // the status the answer has
	Reason    string `json:"reason"`
}

// specConflicts reads the conflicts our document lists.
func specConflicts(raw []byte) ([]specConflict, error) {
	var doc struct {
		Conflicts []specConflict `json:"x-docsd-spec-conflicts"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("x-docsd-spec-conflicts: %w", err)
	}
	for i, c := range doc.Conflicts {
		if c.Version == "" || c.Operation == "" || c.Status == 0 || c.Reason == "" {
			return nil, fmt.Errorf("x-docsd-spec-conflicts[%d]: version, operation, status and reason are all required", i)
		}
	}
	return doc.Conflicts, nil
}

// excused reports whether a listed conflict excuses op's judgement of an answer with status.
func (j *judges) excused(op *apispec.Operation, status int) bool {
	for _, c := range j.conflicts {
		if c.Version == op.Label() && c.Operation == op.ID && c.Status == status {
			return true
		}
	}
	return false
}

// checkConflicts fails when a listed conflict names an operation the version it names does
// not have, or a status that version declares (then there is no conflict).
func (j *judges) checkConflicts() error {
	for _, c := range j.conflicts {
		var found *apispec.Operation
		for _, d := range j.public {
			if d.Label != c.Version {
				continue
			}
			for _, op := range d.Operations() {
				if op.ID == c.Operation {
					found = op
				}
			}
		}
		if found == nil {
			return fmt.Errorf("x-docsd-spec-conflicts: %s has no operation %s", c.Version, c.Operation)
		}
		if _, ok := found.Responses[strconv.Itoa(c.Status)]; ok {
			return fmt.Errorf("x-docsd-spec-conflicts: %s %s declares %d, so nothing conflicts", c.Version, c.Operation, c.Status)
		}
	}
	return nil
}
