// Spaces, collections and their permissions.
import { assert, ids, isTime, need, rejects } from './lib.mjs';

export default {
    name: 'spaces',
    checks: [
        ['POST /orgs/{organizationId}/spaces creates a space (201, Location)', async (t) => {
            const res = await t.admin.orgs.createSpace(t.orgId, { title: 'Handbook', emoji: '📘', language: 'en' });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'space');
            assert.equal(res.data.title, 'Handbook');
            assert.equal(res.data.organization, t.orgId);
            assert.equal(res.data.visibility, 'private');
            assert.equal(res.data.permissions.admin, true);
            isTime(res.data.createdAt, 'createdAt');
            assert.ok(res.headers.get('location').endsWith(`/v1/spaces/${res.data.id}`), res.headers.get('location'));
            t.state.spaceId = res.data.id;
        }],
        ['GET and PATCH /spaces/{spaceId}', async (t) => {
            const spaceId = need(t.state.spaceId, 'space');
            const { data } = await t.admin.spaces.updateSpaceById(spaceId, { title: 'Guide', editMode: 'locked', defaultLevel: 'read' });
            assert.equal(data.title, 'Guide');
            assert.equal(data.editMode, 'locked');
            assert.equal(data.permissions.edit, false);
            const { data: again } = await t.admin.spaces.getSpaceById(spaceId, { shareKey: 'k' });
            assert.equal(again.title, 'Guide');
            assert.equal(again.defaultLevel, 'read');
            await t.admin.spaces.updateSpaceById(spaceId, { editMode: 'live' });
        }],
        ['collections hold spaces, in the order moves give them', async (t) => {
            const { data: col } = await t.admin.orgs.createCollection(t.orgId, { title: 'Guides' });
            assert.equal(col.object, 'collection');
            const a = (await t.admin.orgs.createSpace(t.orgId, { parent: col.id })).data;
            const b = (await t.admin.orgs.createSpace(t.orgId, { parent: col.id })).data;
            assert.equal(a.visibility, 'in-collection');
            await t.admin.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: a.id } } });
            const { data: inCol } = await t.admin.collections.listSpacesInCollectionById(col.id);
            assert.deepEqual(ids(inCol), [b.id, a.id]);
            await rejects(t.admin.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: a.id } } }), 409);
            await rejects(t.admin.spaces.moveSpace(b.id, { parent: 'nope' }), 400);
            const { data: cols } = await t.admin.orgs.listCollectionsInOrganizationById(t.orgId, { nested: true });
            assert.deepEqual(ids(cols), [col.id]);
            await rejects(t.admin.collections.moveCollection(col.id, { parent: col.id }), 400);
            await rejects(t.admin.collections.deleteCollectionById(col.id), 409);
            t.state.collectionId = col.id;
        }],
        ['permissions: invite, list, aggregate, and what the member may do', async (t) => {
            const spaceId = need(t.state.spaceId, 'space');
            await t.admin.spaces.updateSpaceById(spaceId, { defaultLevel: null });
            await rejects(t.user.spaces.getSpaceById(spaceId), 404);
            assert.equal((await t.admin.spaces.inviteToSpace(spaceId, { role: 'edit', users: [t.userId] })).status, 204);
            const { data } = await t.user.spaces.getSpaceById(spaceId);
            assert.equal(data.permissions.edit, true);
            assert.equal(data.permissions.admin, false);
            await rejects(t.user.spaces.updateSpaceById(spaceId, { title: 'Mine' }), 403);
            const { data: users } = await t.admin.spaces.listUserPermissionsInSpace(spaceId);
            assert.deepEqual(users.items.map((x) => [x.user.id, x.permission]), [[t.userId, 'edit']]);
            const { data: all } = await t.admin.spaces.listPermissionsAggregateInSpace(spaceId, { role: 'edit' });
            assert.deepEqual(all.items.map((x) => x.user.id), [t.userId]);
            const { data: mine } = await t.admin.orgs.listSpacesForOrganizationMember(t.orgId, t.userId);
            assert.ok(mine.items.some((x) => x.space.id === spaceId && x.permission === 'edit'), JSON.stringify(mine));
            await t.admin.spaces.updateUserPermissionInSpace(spaceId, t.userId, { role: 'read' });
            assert.equal((await t.user.spaces.getSpaceById(spaceId)).data.permissions.edit, false);
            assert.equal((await t.admin.spaces.removeUserFromSpace(spaceId, t.userId)).status, 204);
            await rejects(t.user.spaces.getSpaceById(spaceId), 404);
        }],
        ['duplicate (201), delete (204) and restore', async (t) => {
            const spaceId = need(t.state.spaceId, 'space');
            const dup = await t.admin.spaces.duplicateSpace(spaceId);
            assert.equal(dup.status, 201);
            assert.notEqual(dup.data.id, spaceId);
            assert.equal(dup.data.title, 'Guide');
            assert.equal((await t.admin.spaces.deleteSpaceById(dup.data.id)).status, 204);
            await rejects(t.admin.spaces.getSpaceById(dup.data.id), 404);
            assert.equal((await t.admin.spaces.deleteSpaceById(dup.data.id)).status, 204);
            const { data } = await t.admin.spaces.restoreSpace(dup.data.id);
            assert.equal(data.id, dup.data.id);
            assert.equal(data.deletedAt, undefined);
            const { data: list } = await t.admin.orgs.listSpacesInOrganizationById(t.orgId);
            assert.ok(ids(list).includes(dup.data.id));
        }],
        ['transfer that would change nothing is 409, an unknown space 404', async (t) => {
            const spaceId = need(t.state.spaceId, 'space');
            const collectionId = need(t.state.collectionId, 'collection');
            await rejects(t.admin.spaces.transferSpace(spaceId, { organization: t.orgId }), 409);
            await rejects(t.admin.spaces.transferSpace('nope', { organization: t.orgId }), 404);
            const { data } = await t.admin.collections.getCollectionById(collectionId);
            assert.equal(data.permissions.create, true);
        }],
    ],
};
