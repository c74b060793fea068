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
CREATE FUNCTION access_generation_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE access_generation SET n = n + 1 WHERE id = 1;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER access_gen_space_user_grants AFTER INSERT OR UPDATE OR DELETE ON space_user_grants
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_space_team_grants AFTER INSERT OR UPDATE OR DELETE ON space_team_grants
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_collection_user_grants AFTER INSERT OR UPDATE OR DELETE ON collection_user_grants
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_collection_team_grants AFTER INSERT OR UPDATE OR DELETE ON collection_team_grants
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_team_members AFTER INSERT OR UPDATE OR DELETE ON team_members
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_members_add AFTER INSERT OR DELETE ON members
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_members_update AFTER UPDATE ON members FOR EACH ROW
    WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.disabled IS DISTINCT FROM NEW.disabled OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
    EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_collections_update AFTER UPDATE ON collections FOR EACH ROW
    WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.default_level IS DISTINCT FROM NEW.default_level OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
    EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_collections_delete AFTER DELETE ON collections
    FOR EACH STATEMENT EXECUTE FUNCTION access_generation_bump();
CREATE TRIGGER access_gen_spaces_update AFTER UPDATE ON spaces FOR EACH ROW
    WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
    EXECUTE FUNCTION access_generation_bump();

-- +goose Down
DROP TRIGGER access_gen_space_user_grants ON space_user_grants;
DROP TRIGGER access_gen_space_team_grants ON space_team_grants;
DROP TRIGGER access_gen_collection_user_grants ON collection_user_grants;
DROP TRIGGER access_gen_collection_team_grants ON collection_team_grants;
DROP TRIGGER access_gen_team_members ON team_members;
DROP TRIGGER access_gen_members_add ON members;
DROP TRIGGER access_gen_members_update ON members;
DROP TRIGGER access_gen_collections_update ON collections;
DROP TRIGGER access_gen_collections_delete ON collections;
DROP TRIGGER access_gen_spaces_update ON spaces;
DROP FUNCTION access_generation_bump();
DROP TABLE access_generation;
