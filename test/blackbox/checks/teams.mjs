// Teams and their members.
import { assert, ids, need, rejects } from './lib.mjs';

export default {
    name: 'teams',
    checks: [
        ['PUT /orgs/{organizationId}/teams creates a team with its members', async (t) => {
            const res = await t.admin.orgs.createOrganizationTeam(t.orgId, { title: 'Writers', members: [t.userId] });
            assert.ok([200, 201].includes(res.status), `status ${res.status}`);
            assert.equal(res.data.object, 'team');
            assert.equal(res.data.title, 'Writers');
            // The public spec leaves open whether the creator joins their own team, so the
            // count is checked against the team's member list below, not against a constant.
            assert.ok(res.data.members >= 1, `members: ${res.data.members}`);
            t.state.teamId = res.data.id;
        }],
        ['GET /orgs/{organizationId}/teams/{teamId} answers the team', async (t) => {
            const teamId = need(t.state.teamId, 'team');
            const { data } = await t.admin.orgs.getTeamInOrganizationById(t.orgId, teamId);
            assert.equal(data.object, 'team');
            assert.equal(data.id, teamId);
            assert.equal(data.title, 'Writers');
            assert.equal(data.permissions.admin, true);
            const { data: listed } = await t.admin.orgs.listTeamMembersInOrganizationById(t.orgId, teamId);
            assert.equal(data.members, listed.items.length);
            const { data: member } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            assert.equal(member.teams, 1);
        }],
        ['GET /orgs/{organizationId}/teams filters by title', async (t) => {
            const teamId = need(t.state.teamId, 'team');
            const list = async (query) => ids((await t.admin.orgs.listTeamsInOrganizationById(t.orgId, query)).data);
            assert.deepEqual(await list({}), [teamId]);
            assert.deepEqual(await list({ title: 'wRiT' }), [teamId]);
            assert.deepEqual(await list({ title: 'nobody' }), []);
        }],
        ['PATCH /orgs/{organizationId}/teams/{teamId} renames the team', async (t) => {
            const teamId = need(t.state.teamId, 'team');
            const { data } = await t.admin.orgs.updateTeamInOrganizationById(t.orgId, teamId, { title: 'Editors' });
            assert.equal(data.title, 'Editors');
            const { data: again } = await t.admin.orgs.getTeamInOrganizationById(t.orgId, teamId);
            assert.equal(again.title, 'Editors');
        }],
        ['team members are listed, added and removed', async (t) => {
            const teamId = need(t.state.teamId, 'team');
            const adminId = need(t.state.adminId, 'administrator id');
            const list = async () => (await t.admin.orgs.listTeamMembersInOrganizationById(t.orgId, teamId)).data;
            const memberIds = (l) => l.items.map((x) => x.organization.id);

            const before = await list();
            assert.ok(memberIds(before).includes(t.userId), `${t.userId} not in ${memberIds(before)}`);
            assert.equal(before.items.find((x) => x.organization.id === t.userId).organization.user.id, t.userId);

            const added = await t.admin.orgs.addMemberToOrganizationTeamById(t.orgId, teamId, adminId, { role: 'owner' });
            assert.equal(added.status, 204);
            const withAdmin = await list();
            assert.equal(withAdmin.items.find((x) => x.organization.id === adminId)?.team.role, 'owner');

            // The public spec answers 205 when a member was removed and 204 when there was none.
            const remove = () => t.admin.orgs.deleteMemberFromOrganizationTeamById(t.orgId, teamId, adminId);
            assert.equal((await remove()).status, 205);
            assert.equal((await remove()).status, 204);
            assert.deepEqual(memberIds(await list()), [t.userId]);
            const { data: team } = await t.admin.orgs.getTeamInOrganizationById(t.orgId, teamId);
            assert.equal(team.members, 1);
        }],
        ['DELETE /orgs/{organizationId}/teams/{teamId} answers 204, again when already gone', async (t) => {
            const teamId = need(t.state.teamId, 'team');
            assert.equal((await t.admin.orgs.removeTeamFromOrganizationById(t.orgId, teamId)).status, 204);
            await rejects(t.admin.orgs.getTeamInOrganizationById(t.orgId, teamId), 404);
            assert.equal((await t.admin.orgs.removeTeamFromOrganizationById(t.orgId, teamId)).status, 204);
        }],
    ],
};
