// Change requests: opened, edited through our page routes, merged, read back at the head.
import { assert, ids, need, rejects } from './lib.mjs';

// ours sends a request to a docsd route the official client has no method for.
async function ours(t, method, path, body) {
    const res = await fetch(`${t.url}/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, data: text ? JSON.parse(text) : null };
}

export default {
    name: 'change-requests',
    checks: [
        ['a change request is opened, edited, merged, and its page read back', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Changes' });
            const created = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Add a page' });
            assert.equal(created.status, 201);
            const cr = created.data;
            assert.equal(cr.object, 'change-request');
            assert.equal(cr.number, 1);
            assert.equal(cr.status, 'open');
            const { data: byNumber } = await t.admin.spaces.getChangeRequestById(space.id, '1');
            assert.equal(byNumber.id, cr.id);
            const { data: list } = await t.admin.spaces.listChangeRequestsForSpace(space.id);
            assert.deepEqual(ids(list), [cr.id]);

            const page = await ours(t, 'POST', `/spaces/${space.id}/change-requests/${cr.id}/pages`,
                { title: 'Welcome', markdown: 'Hello from a change request.\n' });
            assert.equal(page.status, 201, JSON.stringify(page.data));
            const edited = await ours(t, 'PATCH', `/spaces/${space.id}/change-requests/${cr.id}/pages/${page.data.page}`,
                { title: 'Welcome aboard' });
            assert.equal(edited.status, 200, JSON.stringify(edited.data));
            await rejects(t.admin.spaces.getPageById(space.id, page.data.page), 404);

            const { data: merged } = await t.admin.spaces.mergeChangeRequest(space.id, cr.id);
            assert.equal(merged.result, 'merge');
            const { data: after } = await t.admin.spaces.getChangeRequestById(space.id, cr.id);
            assert.equal(after.status, 'merged');
            assert.equal(after.revisionMerged, merged.revision);
            const { data: read } = await t.admin.spaces.getPageById(space.id, page.data.page, { format: 'markdown' });
            assert.equal(read.title, 'Welcome aboard');
            assert.equal(read.markdown, 'Hello from a change request.\n');
            need(read.id, 'page');
        }],
    ],
};
