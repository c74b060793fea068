-- +goose Up
-- A version of each champion list, moved by the same triggers as its size on every entry
-- added or removed, so that a search reuses the list it read before (a thousand rows) while
-- the version it reads, one index seek, is the same. A term's row is never deleted (its size
-- goes to 0), so a version is never given twice to one term; 0 is left for a term that never
-- had a list.
ALTER TABLE search_champion_sizes ADD COLUMN version INTEGER NOT NULL DEFAULT 1;

DROP TRIGGER search_champions_added;
DROP TRIGGER search_champions_removed;

-- +goose StatementBegin
CREATE TRIGGER search_champions_added AFTER INSERT ON search_champions BEGIN
    INSERT INTO search_champion_sizes (term, size, version) VALUES (NEW.term, 1, 1)
        ON CONFLICT (term) DO UPDATE SET size = size + 1, version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_champions_removed AFTER DELETE ON search_champions BEGIN
    UPDATE search_champion_sizes SET size = size - 1, version = version + 1 WHERE term = OLD.term;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER search_champions_removed;
DROP TRIGGER search_champions_added;

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

ALTER TABLE search_champion_sizes DROP COLUMN version;
