// Organization members: list, get, patch, ping and SSO.
import { assert, ids, isTime, need, rejects } from './lib.mjs';

export default {
    name: 'members',
    checks: [
        ['GET /orgs/{organizationId}/members lists the owner and the newcomer', async (t) => {
            const adminId = need(t.state.adminId, 'administrator id');
            const { data } = await t.admin.orgs.listMembersInOrganizationById(t.orgId);
            assert.deepEqual(ids(data).sort(), [adminId, t.userId].sort());
            assert.equal(data.count, 2);
            const byId = Object.fromEntries(data.items.map((m) => [m.id, m]));
            assert.equal(byId[adminId].object, 'member');
            assert.equal(byId[adminId].role, 'admin');
            // A member who joined by email domain takes the organization's default role.
            assert.equal(byId[t.userId].role, 'read');
            assert.equal(byId[t.userId].user.email, t.userEmail);
        }],
        ['GET /orgs/{organizationId}/members/{userId} answers one member', async (t) => {
            const { data } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            assert.equal(data.object, 'member');
            assert.equal(data.id, t.userId);
            assert.equal(data.user.id, t.userId);
            assert.equal(data.user.displayName, 'Blackbox Writer');
            assert.equal(data.role, 'read');
            assert.equal(data.disabled, false);
            assert.equal(data.sso, false);
            isTime(data.joinedAt, 'joinedAt');
        }],
        ['PATCH /orgs/{organizationId}/members/{userId} changes the role', async (t) => {
            const { data } = await t.admin.orgs.updateMemberInOrganizationById(t.orgId, t.userId, { role: 'edit' });
            assert.equal(data.role, 'edit');
            const { data: again } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            assert.equal(again.role, 'edit');
        }],
        ['the role and search filters narrow the member list', async (t) => {
            const adminId = need(t.state.adminId, 'administrator id');
            const list = async (query) => ids((await t.admin.orgs.listMembersInOrganizationById(t.orgId, query)).data);
            assert.deepEqual(await list({ role: 'edit' }), [t.userId]);
            assert.deepEqual(await list({ role: 'admin' }), [adminId]);
            assert.deepEqual(await list({ search: 'BLACKBOX WRITER' }), [t.userId]);
            assert.deepEqual(await list({ search: 'no one is called this' }), []);
        }],
        ['a member who is not an admin cannot change roles (403)', async (t) => {
            const adminId = need(t.state.adminId, 'administrator id');
            await rejects(t.user.orgs.updateMemberInOrganizationById(t.orgId, adminId, { role: 'read' }), 403);
            const { data } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, adminId);
            assert.equal(data.role, 'admin');
        }],
        ['PATCH /users/{userId} of another member is 403', async (t) => {
            const adminId = need(t.state.adminId, 'administrator id');
            await rejects(t.user.users.updateUserById(adminId, { displayName: 'Taken over' }), 403);
        }],
        ['POST /orgs/{organizationId}/ping records when the member was last seen', async (t) => {
            const res = await t.user.orgs.updateOrganizationMemberLastSeenAt(t.orgId);
            assert.equal(res.status, 200);
            assert.equal(typeof res.data, 'object');
            const { data } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            isTime(data.lastSeenAt, 'lastSeenAt');
            // Sorting by lastSeenAt lists only members who have been seen.
            const { data: seen } = await t.admin.orgs.listMembersInOrganizationById(t.orgId, { sort: 'lastSeenAt' });
            assert.deepEqual(ids(seen), [t.userId]);
        }],
        ['POST /orgs/{organizationId}/members/{userId}/sso marks an SSO member', async (t) => {
            const { data } = await t.admin.orgs.setUserAsSsoMemberForOrganization(t.orgId, t.userId);
            assert.equal(data.object, 'member');
            assert.equal(data.id, t.userId);
            assert.equal(data.sso, true);
            const { data: again } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            assert.equal(again.sso, true);
        }],
    ],
};
