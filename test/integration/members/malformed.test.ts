import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { setPlan } from './fixtures.js';

let owner: SignedIn;
const ctx = fileContext({ env: { BODY_LIMIT_BYTES: '65536' } });
beforeAll(async () => {
  owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'team');
});

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: (ws: string) => string;
  body?: string;
  contentType?: string;
  status: number;
  code?: string;
}

const MEMBER = '00000000-0000-4000-8000-000000000001';
const CASES: Case[] = [
  {
    name: 'plan: broken JSON',
    method: 'PUT',
    url: (ws) => `/workspaces/${ws}/plan`,
    body: '{"plan":',
    status: 400,
    code: 'malformed_json',
  },
  { name: 'plan: empty body', method: 'PATCH', url: (ws) => `/workspaces/${ws}/plan`, body: '', status: 400 },
  {
    name: 'plan: JSON null',
    method: 'PUT',
    url: (ws) => `/workspaces/${ws}/plan`,
    body: 'null',
    status: 400,
  },
  {
    name: 'plan: text/plain',
    method: 'PUT',
    url: (ws) => `/workspaces/${ws}/plan`,
    body: 'team',
    contentType: 'text/plain',
    status: 415,
  },
  {
    name: 'plan: huge body',
    method: 'PUT',
    url: (ws) => `/workspaces/${ws}/plan`,
    body: JSON.stringify({ plan: 'x'.repeat(70_000) }),
    status: 413,
  },
  {
    name: 'plan: nested object',
    method: 'PUT',
    url: (ws) => `/workspaces/${ws}/plan`,
    body: '{"plan":{"name":"team"}}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'invite: array body',
    method: 'POST',
    url: (ws) => `/workspaces/${ws}/members`,
    body: '[]',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'invite: over-long e-mail',
    method: 'POST',
    url: (ws) => `/workspaces/${ws}/members`,
    body: JSON.stringify({ email: `${'a'.repeat(250)}@example.com`, role: 'viewer' }),
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'invite: proto pollution',
    method: 'POST',
    url: (ws) => `/workspaces/${ws}/members`,
    body: '{"__proto__":{"role":"owner"},"email":"p@example.com","role":"viewer"}',
    status: 400,
  },
  {
    name: 'role: malformed member id',
    method: 'PATCH',
    url: (ws) => `/workspaces/${ws}/members/${'x'.repeat(150)}`,
    body: '{"role":"viewer"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'role: unknown member',
    method: 'PATCH',
    url: (ws) => `/workspaces/${ws}/members/${MEMBER}`,
    body: '{"role":"viewer"}',
    status: 404,
    code: 'not_found',
  },
  {
    name: 'remove: unknown member',
    method: 'DELETE',
    url: (ws) => `/workspaces/${ws}/members/${MEMBER}`,
    status: 404,
    code: 'not_found',
  },
  {
    name: 'usage: malformed workspace id',
    method: 'GET',
    url: () => '/workspaces/1%27%20OR%201=1/usage',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'audit: bracketed parameter',
    method: 'GET',
    url: () => '/audit?action[]=login',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'audit: huge app_id',
    method: 'GET',
    url: () => `/audit?app_id=${'f'.repeat(5000)}`,
    status: 403,
    code: 'app_not_in_workspace',
  },
  {
    name: 'audit: unicode app_id',
    method: 'GET',
    url: () => `/audit?app_id=${encodeURIComponent('☃\u0000')}`,
    status: 403,
    code: 'app_not_in_workspace',
  },
  {
    name: 'audit: offset beyond 2^53',
    method: 'GET',
    url: () => '/audit?offset=9007199254740993',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'verify: malformed workspace id',
    method: 'GET',
    url: () => '/workspaces/%00/audit/verify',
    status: 400,
  },
];

describe('bad input to workspaces, members and audit is a 4xx problem, never a 500', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const headers: Record<string, string> = { ...owner.headers };
      if (c.body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
      const res = await ctx.app.inject({
        method: c.method,
        url: `/api/v1${c.url(owner.workspaceId)}`,
        headers,
        ...(c.body === undefined ? {} : { payload: c.body }),
      });
      expectProblem(res, c.status, c.code);
    });
  }

  it('leaves no audit entry behind for any refused request', async () => {
    const { rows } = await ctx.deps.db.query(
      "SELECT action FROM audit_log WHERE workspace_id = $1 AND action LIKE 'member.%'",
      [owner.workspaceId],
    );
    expect(rows).toEqual([]);
  });
});
