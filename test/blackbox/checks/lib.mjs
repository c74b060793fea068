// Assertions shared by the check groups.
import assert from 'node:assert/strict';
import { GitBookAPIError } from '@gitbook/api';

export { assert };

// rejects awaits a call that must fail with the given HTTP status and returns the client's
// error. It also proves the server's error body reached the client: the client takes
// errorMessage from `error.message` and falls back to the bare status text.
export async function rejects(call, code) {
    let res;
    try {
        res = await call;
    } catch (err) {
        if (!(err instanceof GitBookAPIError)) {
            throw new Error(`want GitBookAPIError ${code}, got ${err?.stack ?? err}`);
        }
        assert.equal(err.code, code, `want status ${code}, got ${err.code}: ${err.errorMessage}`);
        assert.notEqual(err.errorMessage, err.response.statusText, `no error message in the body: ${err.message}`);
        return err;
    }
    throw new Error(`want status ${code}, got ${res.status}: ${JSON.stringify(res.data)}`);
}

// need returns a value an earlier check was to leave behind, or says which one is missing.
export function need(value, what) {
    if (value === undefined || value === null) {
        throw new Error(`no ${what}: an earlier check that makes it failed`);
    }
    return value;
}

// ids returns the ids of a list answer's items, after checking the list envelope.
export function ids(list) {
    assert.ok(Array.isArray(list.items), `items is not an array: ${JSON.stringify(list)}`);
    assert.equal(typeof list.count, 'number', 'count is not a number');
    return list.items.map((item) => item.id);
}

// isTime checks an ISO 8601 date-time string.
export function isTime(value, field) {
    assert.equal(typeof value, 'string', `${field} is not a string`);
    assert.match(value, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/, `${field} is not ISO 8601: ${value}`);
    assert.ok(!Number.isNaN(Date.parse(value)), `${field} is not a date: ${value}`);
}

// texts gathers the text of a rich-text document's leaves, so a document can be compared
// without depending on keys or empty fields the server may add.
export function texts(node) {
    if (Array.isArray(node)) return node.flatMap(texts);
    if (!node || typeof node !== 'object') return [];
    if (node.object === 'leaf') return [node.text];
    return texts(node.nodes ?? node.leaves ?? []);
}
