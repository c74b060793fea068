// How failures reach the client: as GitBookAPIError with the HTTP status as its code.
import { GitBookAPIError } from '@gitbook/api';
import { assert, rejects } from './lib.mjs';

export default {
    name: 'errors',
    checks: [
        ['an unknown organization is a GitBookAPIError with code 404', async (t) => {
            const err = await rejects(t.admin.orgs.getOrganizationById('no-such-organization'), 404);
            assert.ok(err instanceof GitBookAPIError);
            assert.equal(err.response.status, 404);
            assert.match(err.message, /\[404\]/);
        }],
        ['a wrong token is refused with 401', async (t) => {
            await rejects(t.client('not-a-real-token').user.getAuthenticatedUser(), 401);
        }],
        ['no token at all is refused with 401', async (t) => {
            await rejects(t.client(undefined).orgs.listOrganizationsForAuthenticatedUser(), 401);
        }],
    ],
};
