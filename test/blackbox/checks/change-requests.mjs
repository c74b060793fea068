// Change requests: opened, edited through our page routes, merged, read back at the head.
import { assert, ids, isTime, need, rejects } from './lib.mjs';

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

// tarOf packs files (path → text) into an uncompressed ustar archive, for the upload import.
function tarOf(files) {
    const blocks = [];
    for (const [name, text] of Object.entries(files)) {
        const data = Buffer.from(text);
        const header = Buffer.alloc(512);
        header.write(name, 0, 100);
        header.write('0000644\0', 100);
        header.write('0000000\0', 108);
        header.write('0000000\0', 116);
        header.write(data.length.toString(8).padStart(11, '0') + '\0', 124);
        header.write('00000000000\0', 136);
        header.write('        ', 148);
        header.write('0', 156);
        header.write('ustar\0' + '00', 257);
        let sum = 0;
        for (const b of header) sum += b;
        header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
        blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
    blocks.push(Buffer.alloc(1024));
    return Buffer.concat(blocks);
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
        ['an imported tree is edited in a change request, reviewed under a merge rule, merged and read back', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Imported' });
            const res = await fetch(`${t.url}/v1/spaces/${space.id}/content/import`, {
                method: 'POST',
                headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/x-tar' },
                body: tarOf({
                    'README.md': '# Home\n\nStart with the [guide](docs/guide.md#setup).\n',
                    'SUMMARY.md': '* [Home](README.md)\n* [Guide](docs/guide.md)\n',
                    'docs/guide.md': '# Guide\n\n## Setup\n\nOld text.\n',
                }),
            });
            assert.equal(res.status, 201, await res.text());
            const { data: pages } = await t.admin.spaces.listPages(space.id);
            assert.deepEqual(pages.pages.map((p) => p.title), ['Home', 'Guide']);
            const guide = pages.pages[1];
            const { data: home } = await t.admin.spaces.getPageById(space.id, pages.pages[0].id, { format: 'markdown' });
            assert.equal(home.markdown, 'Start with the [guide](guide.md#setup).\n');

            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Better guide' });
            const edited = await ours(t, 'PATCH', `/spaces/${space.id}/change-requests/${cr.id}/pages/${guide.id}`,
                { markdown: '## Setup\n\nNew text.\n' });
            assert.equal(edited.status, 200, JSON.stringify(edited.data));

            await t.admin.spaces.updateSpaceById(space.id, {
                mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [t.userId] }] },
            });
            await t.admin.spaces.inviteToSpace(space.id, { role: 'review', users: [t.userId] });
            const { data: asked } = await t.admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [t.userId] });
            assert.equal(asked.users[0].user.id, t.userId);
            const { data: waiting } = await t.admin.spaces.listChangeRequestsForSpace(space.id, { requestedReviewer: t.userId });
            assert.deepEqual(ids(waiting), [cr.id]);
            await rejects(t.admin.spaces.mergeChangeRequest(space.id, cr.id), 409);

            const review = await t.user.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' });
            assert.equal(review.status, 201);
            assert.equal(review.data.reviewer.id, t.userId);
            const { data: reviews } = await t.admin.spaces.getReviewsByChangeRequestId(space.id, cr.id);
            assert.deepEqual(ids(reviews), [review.data.id]);

            const { data: merged } = await t.admin.spaces.mergeChangeRequest(space.id, cr.id);
            assert.equal(merged.result, 'merge');
            const { data: read } = await t.admin.spaces.getPageById(space.id, guide.id, { format: 'markdown' });
            assert.equal(read.markdown, '## Setup\n\nNew text.\n');
            // The edit dated the page; the imported page nobody edited has no times.
            isTime(read.updatedAt, 'updatedAt');
            assert.equal(read.createdAt, read.updatedAt, 'createdAt of a page edited once');
            assert.equal(home.updatedAt, undefined, 'updatedAt of an imported page never edited');
        }],
    ],
};
