// Invite links, leaving an organization and coming back through an invite.
import { assert, ids, need, rejects } from './lib.mjs';

export default {
    name: 'invites',
    checks: [
        ['POST /orgs/{organizationId}/link-invites creates an invite (201)', async (t) => {
            const res = await t.admin.orgs.createOrganizationInvite(t.orgId, { role: 'comment' });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'invite');
            assert.equal(res.data.role, 'comment');
            assert.equal(typeof res.data.id, 'string');
            assert.equal(typeof res.data.redundant, 'boolean');
            t.state.inviteId = res.data.id;
        }],
        ['GET link-invites lists it and GET by id answers it', async (t) => {
            const inviteId = need(t.state.inviteId, 'invite');
            const { data: list } = await t.admin.orgs.listOrganizationInviteLinks(t.orgId);
            assert.deepEqual(ids(list), [inviteId]);
            const { data } = await t.admin.orgs.getOrganizationInviteLink(t.orgId, inviteId);
            assert.equal(data.id, inviteId);
            assert.equal(data.role, 'comment');
        }],
        ['DELETE /orgs/{organizationId}/members/{userId} removes the member, 204 again when gone', async (t) => {
            assert.equal((await t.admin.orgs.removeMemberFromOrganizationById(t.orgId, t.userId)).status, 204);
            await rejects(t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId), 404);
            await rejects(t.user.orgs.getOrganizationById(t.orgId), 404);
            assert.equal((await t.admin.orgs.removeMemberFromOrganizationById(t.orgId, t.userId)).status, 204);
        }],
        ['POST /orgs/{organizationId}/invites/{inviteId} joins at the invite\'s role', async (t) => {
            const inviteId = need(t.state.inviteId, 'invite');
            const res = await t.user.orgs.joinOrganizationWithInvite(t.orgId, inviteId);
            assert.equal(res.status, 200);
            const { data } = await t.admin.orgs.getMemberInOrganizationById(t.orgId, t.userId);
            assert.equal(data.role, 'comment');
            const { data: org } = await t.user.orgs.getOrganizationById(t.orgId);
            assert.equal(org.id, t.orgId);
        }],
        ['DELETE /orgs/{organizationId}/link-invites/{inviteId} answers 204, again when already gone', async (t) => {
            const inviteId = need(t.state.inviteId, 'invite');
            assert.equal((await t.admin.orgs.deleteOrganizationInviteById(t.orgId, inviteId)).status, 204);
            await rejects(t.admin.orgs.getOrganizationInviteLink(t.orgId, inviteId), 404);
            assert.equal((await t.admin.orgs.deleteOrganizationInviteById(t.orgId, inviteId)).status, 204);
            const { data } = await t.admin.orgs.listOrganizationInviteLinks(t.orgId);
            assert.deepEqual(ids(data), []);
        }],
    ],
};
