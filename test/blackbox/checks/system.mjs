// The API's own information (getApiInformation): which build answers.
import { assert } from './lib.mjs';

export default {
    name: 'system',
    checks: [
        ['GET / answers the version and build date stamped at build time, with or without a token', async (t) => {
            const { data } = await t.admin.getApiInformation();
            assert.deepEqual(Object.keys(data).sort(), ['build', 'version']);
            // The version carries the commit as build metadata when the build knew it.
            assert.match(data.version, new RegExp(`^${t.buildVersion.replaceAll('.', '\\.')}(\\+[0-9a-f]+(\\.dirty)?)?$`));
            assert.equal(data.build, new Date(t.buildDate).toISOString());
            const { data: anonymous } = await t.client(undefined).getApiInformation();
            assert.deepEqual(anonymous, data);
        }],
    ],
};
