-- +goose Up
-- A team's member list is ordered by the time each member joined it; this index serves its
-- keyset pages without sorting the whole team.
CREATE INDEX team_members_added ON team_members (team_id, added_at, user_id);

-- +goose Down
DROP INDEX team_members_added;
