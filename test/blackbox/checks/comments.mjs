// Comments: posted on a space and on a change request, resolved, reacted to, replied to,
// filtered and deleted through the official client.
import { assert, ids, isTime, rejects, texts } from './lib.mjs';

export default {
    name: 'comments',
    checks: [
        ['a space comment is posted, resolved, reacted to and replied to', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Discussed' });
            const posted = await t.admin.spaces.postCommentInSpace(space.id, { body: { markdown: 'Is this **right**?' } });
            assert.equal(posted.status, 200);
            const comment = posted.data;
            assert.equal(comment.object, 'comment');
            assert.equal(comment.status, 'open');
            assert.equal(comment.target.space, space.id);
            assert.deepEqual(texts(comment.body.document.nodes), ['Is this ', 'right', '?']);
            isTime(comment.postedAt, 'postedAt');
            assert.deepEqual(comment.permissions, { view: true, edit: true, reply: true, delete: true });
            assert.equal((await t.admin.spaces.getSpaceById(space.id)).data.comments, 1);

            const { data: md } = await t.admin.spaces.getCommentInSpace(space.id, comment.id, { format: 'markdown' });
            assert.equal(md.body.markdown, 'Is this **right**?');

            const { data: resolved } = await t.admin.spaces.updateCommentInSpace(space.id, comment.id,
                { resolved: true, addedReactions: ['👍', '🎉'] });
            assert.equal(resolved.status, 'resolved');
            isTime(resolved.resolvedAt, 'resolvedAt');
            assert.equal(resolved.resolvedBy.id, comment.postedBy.id);
            assert.deepEqual(resolved.reactions.map((r) => [r.emoji, r.count]).sort(), [['🎉', 1], ['👍', 1]]);
            assert.equal((await t.admin.spaces.getSpaceById(space.id)).data.comments, 0);
            const { data: again } = await t.admin.spaces.updateCommentInSpace(space.id, comment.id,
                { addedReactions: ['👍'], removedReactions: ['🎉'] });
            assert.deepEqual(again.reactions.map((r) => [r.emoji, r.count]), [['👍', 1]]);

            const { data: reply } = await t.admin.spaces.postCommentReplyInSpace(space.id, comment.id, { body: { markdown: 'Yes.' } });
            assert.equal(reply.object, 'comment-reply');
            const { data: replies } = await t.admin.spaces.listCommentRepliesInSpace(space.id, comment.id, { format: 'markdown' });
            assert.deepEqual(ids(replies), [reply.id]);
            assert.equal(replies.items[0].body.markdown, 'Yes.');
            const { data: withReply } = await t.admin.spaces.getCommentInSpace(space.id, comment.id);
            assert.equal(withReply.replies, 1);
            assert.equal(withReply.repliers[0].count, 1);

            const { data: open } = await t.admin.spaces.listCommentsInSpace(space.id, { status: 'open' });
            assert.deepEqual(ids(open), []);
            const { data: mine } = await t.admin.spaces.listCommentsInSpace(space.id, { status: 'resolved', authors: [comment.postedBy.id] });
            assert.deepEqual(ids(mine), [comment.id]);
            await rejects(t.admin.spaces.listCommentsInSpace(space.id, { order: 'sideways' }), 400);
            await rejects(t.user.spaces.getCommentInSpace(space.id, comment.id), 404);

            await t.admin.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id);
            assert.equal((await t.admin.spaces.getCommentInSpace(space.id, comment.id)).data.replies, 0);
            const deleted = await t.admin.spaces.deleteCommentInSpace(space.id, comment.id);
            assert.equal(deleted.status, 204);
            await rejects(t.admin.spaces.getCommentInSpace(space.id, comment.id), 404);
        }],

        ['a change request comment targets a page and counts on the change request', async (t) => {
            const { data: space } = await t.admin.orgs.createSpace(t.orgId, { title: 'Reviewed' });
            const { data: cr } = await t.admin.spaces.createChangeRequest(space.id, { subject: 'Draft' });
            const res = await fetch(`${t.url}/v1/spaces/${space.id}/change-requests/${cr.id}/pages`, {
                method: 'POST',
                headers: { Authorization: `Bearer ${process.env.BLACKBOX_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
                body: JSON.stringify({ title: 'Welcome', markdown: 'First paragraph.\n' }),
            });
            assert.equal(res.status, 201);
            const { page } = await res.json();
            const { data: comment } = await t.admin.spaces.postCommentInChangeRequest(space.id, cr.id,
                { page, body: { markdown: 'Typo here' } });
            assert.equal(comment.target.changeRequest, cr.id);
            assert.equal(comment.target.page.id, page);
            assert.equal((await t.admin.spaces.getChangeRequestById(space.id, cr.id)).data.comments, 1);
            const { data: onPage } = await t.admin.spaces.listCommentsInChangeRequest(space.id, cr.id, { targetPage: page });
            assert.deepEqual(ids(onPage), [comment.id]);
            await rejects(t.admin.spaces.postCommentInChangeRequest(space.id, cr.id, { page: 'missing', body: { markdown: 'x' } }), 400);
            const { data: resolved } = await t.admin.spaces.updateCommentInChangeRequest(space.id, cr.id, comment.id, { resolved: true });
            assert.equal(resolved.status, 'resolved');
            assert.equal((await t.admin.spaces.getChangeRequestById(space.id, cr.id)).data.comments, 0);
        }],
    ],
};
