-- +goose Up
-- The size of each champion list, kept by triggers, so that an index update learns whether a
-- list is full and its lightest weight from an index seek per word instead of reading every
-- list of the words it touches (a thousand rows each).
CREATE TABLE search_champion_sizes (
    term TEXT PRIMARY KEY,
    size INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO search_champion_sizes (term, size) SELECT term, COUNT(*) FROM search_champions GROUP BY term;

-- +goose StatementBegin
CREATE TRIGGER search_champions_added AFTER INSERT ON search_champions BEGIN
    INSERT INTO search_champion_sizes (term, size) VALUES (NEW.term, 1)
        ON CONFLICT (term) DO UPDATE SET size = size + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_champions_removed AFTER DELETE ON search_champions BEGIN
    UPDATE search_champion_sizes SET size = size - 1 WHERE term = OLD.term;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER search_champions_removed;
DROP TRIGGER search_champions_added;
DROP TABLE search_champion_sizes;
