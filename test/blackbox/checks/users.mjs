// GET /user, GET and PATCH /users/{userId}.
import { assert, rejects } from './lib.mjs';

export default {
    name: 'users',
    checks: [
        ['GET /user answers the token\'s owner', async (t) => {
            const { data: me } = await t.user.user.getAuthenticatedUser();
            assert.equal(me.object, 'user');
            assert.equal(me.id, t.userId);
            assert.equal(me.email, t.userEmail);
            assert.equal(me.urls.location, `${t.url}/v1/users/${t.userId}`);

            const { data: admin } = await t.admin.user.getAuthenticatedUser();
            assert.equal(admin.object, 'user');
            assert.notEqual(admin.id, t.userId);
            t.state.adminId = admin.id;
        }],
        ['GET /users/{userId} answers the caller themselves', async (t) => {
            const { data } = await t.user.users.getUserById(t.userId);
            assert.equal(data.id, t.userId);
            assert.equal(data.email, t.userEmail);
        }],
        ['PATCH /users/{userId} changes the caller\'s display name', async (t) => {
            const { data } = await t.user.users.updateUserById(t.userId, { displayName: 'Blackbox Writer' });
            assert.equal(data.displayName, 'Blackbox Writer');
            const { data: again } = await t.user.user.getAuthenticatedUser();
            assert.equal(again.displayName, 'Blackbox Writer');
        }],
        ['PATCH /users/{userId} rejects an empty display name with 400', async (t) => {
            const err = await rejects(t.user.users.updateUserById(t.userId, { displayName: '' }), 400);
            assert.match(err.errorMessage, /displayName/);
            const { data } = await t.user.user.getAuthenticatedUser();
            assert.equal(data.displayName, 'Blackbox Writer');
        }],
        ['a user who shares no organization with the caller is 404', async (t) => {
            await rejects(t.admin.users.getUserById(t.userId), 404);
        }],
    ],
};
