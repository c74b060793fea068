package store

// GenerationWaits is how many generation checks waited to batch requests.
func (db *DB) GenerationWaits() uint64 {
	db.gens.mu.Lock()
	defer db.gens.mu.Unlock()
	return db.gens.waits
}
