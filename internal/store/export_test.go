package store

// GenerationWaits is how many generation checks waited to batch requests.
func (db *DB) GenerationWaits() uint64 {
	db.gens.mu.Lock()
	defer db.gens.mu.Unlock()
	return db.gens.waits
}

// GroupCommits is how many groups of writes have committed (groupcommit.go).
func (db *DB) GroupCommits() uint64 { return db.group.commits.Load() }

// WritesWaiting is how many writes wait for the writer.
func (db *DB) WritesWaiting() int32 { return db.group.waiting.Load() }

// GenerationPragmas is how many generation checks asked SQLite (PRAGMA data_version) rather
// than finding the wal-index header unchanged.
func (db *DB) GenerationPragmas() uint64 { return db.gens.pragmas.Load() }

// SharedMemoryDescriptors is how many descriptors of -shm files the process keeps open.
func SharedMemoryDescriptors() int { return shmDescriptors() }
