package content

// Values derived from a revision (its link index, for one) never go stale, since a revision
// never changes: they are computed once per process and kept in a bounded cache beside the
// snapshots. Two requests that miss at the same time both compute; the results are equal.

const maxDerived = 64

// Derive returns the value kind derived from revisionID, computing it with build on a miss.
// Callers use one kind per type of value.
func Derive[T any](s *Service, revisionID, kind string, build func() (T, error)) (T, error) {
	key := kind + "\x00" + revisionID
	if v, ok := s.derived.get(key); ok {
		if t, ok := v.(T); ok {
			return t, nil
		}
	}
	t, err := build()
	if err != nil {
		return t, err
	}
	s.derived.put(key, t)
	return t, nil
}
