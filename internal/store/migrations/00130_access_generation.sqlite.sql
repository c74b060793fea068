-- +goose Up
-- The access generation (internal/access): one counter that every change to what decides a
-- role adds one to, in the transaction of the change, so that access decisions cached at a
-- generation are known stale on every instance sharing the database from the next request
-- on. Triggers rather than calls in each write path: no path can forget one. Writes that
-- leave roles alone (a member seen, a space retitled) do not move it.
CREATE TABLE access_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  BIGINT NOT NULL
);
INSERT INTO access_generation (id, n) VALUES (1, 0);

-- +goose StatementBegin
CREATE TRIGGER access_gen_space_user_grants_insert AFTER INSERT ON space_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_space_user_grants_update AFTER UPDATE ON space_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_space_user_grants_delete AFTER DELETE ON space_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_space_team_grants_insert AFTER INSERT ON space_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_space_team_grants_update AFTER UPDATE ON space_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_space_team_grants_delete AFTER DELETE ON space_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_user_grants_insert AFTER INSERT ON collection_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_user_grants_update AFTER UPDATE ON collection_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_user_grants_delete AFTER DELETE ON collection_user_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_team_grants_insert AFTER INSERT ON collection_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_team_grants_update AFTER UPDATE ON collection_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collection_team_grants_delete AFTER DELETE ON collection_team_grants
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_team_members_insert AFTER INSERT ON team_members
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_team_members_update AFTER UPDATE ON team_members
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_team_members_delete AFTER DELETE ON team_members
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_members_insert AFTER INSERT ON members
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_members_delete AFTER DELETE ON members
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_members_update AFTER UPDATE ON members
    WHEN OLD.role IS NOT NEW.role OR OLD.disabled IS NOT NEW.disabled OR OLD.user_id IS NOT NEW.user_id OR OLD.organization_id IS NOT NEW.organization_id
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collections_update AFTER UPDATE ON collections
    WHEN OLD.parent_id IS NOT NEW.parent_id OR OLD.default_level IS NOT NEW.default_level OR OLD.organization_id IS NOT NEW.organization_id
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_collections_delete AFTER DELETE ON collections
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER access_gen_spaces_update AFTER UPDATE ON spaces
    WHEN OLD.parent_id IS NOT NEW.parent_id OR OLD.organization_id IS NOT NEW.organization_id
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd
-- +goose Down
DROP TRIGGER access_gen_space_user_grants_insert;
DROP TRIGGER access_gen_space_user_grants_update;
DROP TRIGGER access_gen_space_user_grants_delete;
DROP TRIGGER access_gen_space_team_grants_insert;
DROP TRIGGER access_gen_space_team_grants_update;
DROP TRIGGER access_gen_space_team_grants_delete;
DROP TRIGGER access_gen_collection_user_grants_insert;
DROP TRIGGER access_gen_collection_user_grants_update;
DROP TRIGGER access_gen_collection_user_grants_delete;
DROP TRIGGER access_gen_collection_team_grants_insert;
DROP TRIGGER access_gen_collection_team_grants_update;
DROP TRIGGER access_gen_collection_team_grants_delete;
DROP TRIGGER access_gen_team_members_insert;
DROP TRIGGER access_gen_team_members_update;
DROP TRIGGER access_gen_team_members_delete;
DROP TRIGGER access_gen_members_insert;
DROP TRIGGER access_gen_members_delete;
DROP TRIGGER access_gen_members_update;
DROP TRIGGER access_gen_collections_update;
DROP TRIGGER access_gen_collections_delete;
DROP TRIGGER access_gen_spaces_update;
DROP TABLE access_generation;
