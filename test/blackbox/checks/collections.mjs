// Collections holding spaces, their order, grants, the trash, and moves to the top level.
import { assert, ids, need, rejects } from './lib.mjs';

export default {
    name: 'collections',
    checks: [
        ['POST /orgs/{organizationId}/collections creates a collection (201)', async (t) => {
            const res = await t.admin.orgs.createCollection(t.orgId, { title: 'Product' });
            assert.equal(res.status, 201);
            assert.equal(res.data.object, 'collection');
            assert.equal(res.data.title, 'Product');
            assert.equal(res.data.permissions.admin, true);
            t.state.productCollectionId = res.data.id;
        }],
        ['POST /orgs/{organizationId}/spaces creates spaces in the collection (201)', async (t) => {
            const parent = need(t.state.productCollectionId, 'collection');
            const guide = await t.admin.orgs.createSpace(t.orgId, { title: 'User guide', parent });
            assert.equal(guide.status, 201);
            assert.equal(guide.data.object, 'space');
            assert.equal(guide.data.parent, parent);
            assert.equal(guide.data.organization, t.orgId);
            const reference = await t.admin.orgs.createSpace(t.orgId, { title: 'API reference', parent });
            t.state.guideSpaceId = guide.data.id;
            t.state.referenceSpaceId = reference.data.id;
            const { data } = await t.admin.collections.listSpacesInCollectionById(parent);
            assert.deepEqual(ids(data), [guide.data.id, reference.data.id]);
        }],
        ['GET and PATCH /spaces/{spaceId} read and change a space', async (t) => {
            const id = need(t.state.guideSpaceId, 'space');
            const { data } = await t.admin.spaces.updateSpaceById(id, { title: 'Guide', editMode: 'locked' });
            assert.equal(data.title, 'Guide');
            const { data: again } = await t.admin.spaces.getSpaceById(id);
            assert.equal(again.title, 'Guide');
            assert.equal(again.editMode, 'locked');
            assert.equal(again.permissions.admin, true);
            assert.match(again.urls.location, /^https?:\/\//);
        }],
        ['POST /spaces/{spaceId}/move puts a space before another', async (t) => {
            const parent = need(t.state.productCollectionId, 'collection');
            const before = need(t.state.guideSpaceId, 'space');
            await t.admin.spaces.moveSpace(need(t.state.referenceSpaceId, 'space'), {
                parent, position: { before: { type: 'space', space: before } },
            });
            const { data } = await t.admin.collections.listSpacesInCollectionById(parent);
            assert.deepEqual(ids(data), [t.state.referenceSpaceId, before]);
        }],
        ['POST /spaces/{spaceId}/permissions grants a member a role they then hold', async (t) => {
            const id = need(t.state.referenceSpaceId, 'space');
            await t.admin.spaces.inviteToSpace(id, { role: 'edit', users: [t.userId] });
            const { data } = await t.user.spaces.getSpaceById(id);
            assert.equal(data.permissions.edit, true);
            assert.equal(data.permissions.admin, false);
            const { data: mine } = await t.admin.orgs.listSpacesForOrganizationMember(t.orgId, t.userId);
            const item = mine.items.find((it) => it.space.id === id);
            assert.ok(item, `space ${id} not listed for the member`);
            assert.equal(item.permission, 'edit');
            const { data: aggregate } = await t.admin.spaces.listPermissionsAggregateInSpace(id);
            assert.ok(aggregate.items.length >= 1, 'the aggregate lists nobody');
        }],
        ['a member without the admin role cannot delete the space (403)', async (t) => {
            await rejects(t.user.spaces.deleteSpaceById(need(t.state.referenceSpaceId, 'space')), 403);
        }],
        ['DELETE /spaces/{spaceId} moves a space to the trash and restore brings it back', async (t) => {
            const id = need(t.state.guideSpaceId, 'space');
            const del = await t.admin.spaces.deleteSpaceById(id);
            assert.equal(del.status, 204);
            await rejects(t.admin.spaces.getSpaceById(id), 404);
            const { data } = await t.admin.spaces.restoreSpace(id);
            assert.equal(data.id, id);
            assert.equal(data.deletedAt, undefined);
            const again = await t.admin.spaces.getSpaceById(id);
            assert.equal(again.data.title, 'Guide');
        }],
        ['POST /spaces/{spaceId}/duplicate makes a copy with the same settings', async (t) => {
            const { data } = await t.admin.spaces.duplicateSpace(need(t.state.guideSpaceId, 'space'));
            assert.notEqual(data.id, t.state.guideSpaceId);
            assert.equal(data.parent, t.state.productCollectionId);
            assert.equal(data.editMode, 'locked');
        }],
        ['collections are listed, renamed and moved to the top level', async (t) => {
            const parent = need(t.state.productCollectionId, 'collection');
            const child = await t.admin.orgs.createCollection(t.orgId, { title: 'Archive', parent });
            const { data: nested } = await t.admin.orgs.listCollectionsInOrganizationById(t.orgId);
            assert.ok(ids(nested).includes(child.data.id));
            const { data: top } = await t.admin.orgs.listCollectionsInOrganizationById(t.orgId, { nested: false });
            assert.ok(!ids(top).includes(child.data.id), 'nested=false listed a sub-collection');
            const { data: renamed } = await t.admin.collections.updateCollectionById(child.data.id, { title: 'Old docs' });
            assert.equal(renamed.title, 'Old docs');
            const { data: moved } = await t.admin.collections.moveCollection(child.data.id, { parent: null });
            assert.equal(moved.parent, undefined);
            await rejects(t.admin.collections.moveCollection(parent, { parent }), 400);
        }],
        ['an unknown space reaches the client as a 404', async (t) => {
            await rejects(t.admin.spaces.getSpaceById('nosuchspace'), 404);
        }],
    ],
};
