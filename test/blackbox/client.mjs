// Drives a running docsd through the official GitBook API client, exactly as a user's program
// would, and checks what comes back. run.sh starts the server and sets the environment:
//
//   BLACKBOX_URL          the server's root (the client adds /v1 itself)
//   BLACKBOX_ADMIN_TOKEN  token of an administrator of BLACKBOX_ORG_ID
//   BLACKBOX_USER_TOKEN   token of a second user, not yet a member of that organization
//   BLACKBOX_USER_ID, BLACKBOX_USER_EMAIL  that second user
//   BLACKBOX_ORG_ID, BLACKBOX_ORG_TITLE    an organization the administrator owns
//   BLACKBOX_BUILD_VERSION, BLACKBOX_BUILD_DATE  what the build stamped (-ldflags -X)
//
// The checks are grouped by resource in ./checks, one module per group. Groups run in the
// order below and share one scenario: a check may leave ids in `t.state` for later checks.
// To cover a new part of the API, write a module that exports { name, checks: [[title, fn]] }
// and add it to the list.
import { GitBookAPI } from '@gitbook/api';

import system from './checks/system.mjs';
import errors from './checks/errors.mjs';
import users from './checks/users.mjs';
import orgs from './checks/orgs.mjs';
import emailDomains from './checks/email-domains.mjs';
import join from './checks/join.mjs';
import members from './checks/members.mjs';
import teams from './checks/teams.mjs';
import saml from './checks/saml.mjs';
import agent from './checks/agent.mjs';
import invites from './checks/invites.mjs';
import spaces from './checks/spaces.mjs';
import collections from './checks/collections.mjs';
import changeRequests from './checks/change-requests.mjs';
import comments from './checks/comments.mjs';
import contentReads from './checks/content-reads.mjs';
import pdf from './checks/pdf.mjs';
import sites from './checks/sites.mjs';
import search from './checks/search.mjs';
import publishedSites from './checks/published-sites.mjs';

const groups = [system, errors, users, orgs, emailDomains, join, members, teams, saml, agent, invites, spaces, collections, changeRequests, comments, contentReads, pdf, sites, search, publishedSites];

// A hung request must fail its check, not the whole run.
const CHECK_TIMEOUT_MS = 15_000;

function env(name) {
    const v = process.env[name];
    if (!v) {
        console.error(`client.mjs: ${name} is not set (run it through run.sh)`);
        process.exit(2);
    }
    return v;
}

const url = env('BLACKBOX_URL');
const client = (authToken) => new GitBookAPI({ endpoint: url, authToken });

const t = {
    url,
    client,
    admin: client(env('BLACKBOX_ADMIN_TOKEN')),
    user: client(env('BLACKBOX_USER_TOKEN')),
    userId: env('BLACKBOX_USER_ID'),
    userEmail: env('BLACKBOX_USER_EMAIL'),
    orgId: env('BLACKBOX_ORG_ID'),
    orgTitle: env('BLACKBOX_ORG_TITLE'),
    buildVersion: env('BLACKBOX_BUILD_VERSION'),
    buildDate: env('BLACKBOX_BUILD_DATE'),
    state: {},
};

function withTimeout(promise) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let passed = 0;
let failed = 0;
for (const group of groups) {
    for (const [title, fn] of group.checks) {
        try {
            await withTimeout(fn(t));
            passed++;
            console.log(`ok    ${group.name}: ${title}`);
        } catch (err) {
            failed++;
            console.log(`FAIL  ${group.name}: ${title}`);
            console.log(`      ${String(err?.message ?? err).trim().split('\n').join('\n      ')}`);
        }
    }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
