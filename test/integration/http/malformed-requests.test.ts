import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

const ctx = fileContext({ env: { BODY_LIMIT_BYTES: '65536' } });

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: string;
  contentType?: string;
  auth?: boolean;
  status: number;
  code?: string;
}

const SIGNIN = '/api/v1/auth/signin';
const JSON_TYPE = 'application/json';

const CASES: Case[] = [
  {
    name: 'broken JSON',
    method: 'POST',
    url: SIGNIN,
    body: '{"email": "a@b.c",',
    status: 400,
    code: 'malformed_json',
  },
  { name: 'JSON array', method: 'POST', url: SIGNIN, body: '[1,2]', status: 400, code: 'invalid_request' },
  { name: 'JSON string', method: 'POST', url: SIGNIN, body: '"hello"', status: 400, code: 'invalid_request' },
  { name: 'null body', method: 'POST', url: SIGNIN, body: 'null', status: 400 },
  { name: 'empty body', method: 'POST', url: SIGNIN, body: '', status: 400 },
  {
    name: 'missing password',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":"a@example.com"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'missing email',
    method: 'POST',
    url: SIGNIN,
    body: '{"password":"12345678"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'email of wrong type',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":5,"password":"12345678"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'password of wrong type',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":"a@example.com","password":12345678}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'not an e-mail',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":"nope","password":"12345678"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'short password',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":"a@example.com","password":"short"}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'unknown field',
    method: 'POST',
    url: SIGNIN,
    body: '{"email":"a@example.com","password":"12345678","admin":true}',
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'wrong content type',
    method: 'POST',
    url: SIGNIN,
    body: 'email=a',
    contentType: 'text/plain',
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'huge body',
    method: 'POST',
    url: SIGNIN,
    body: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70_000) }),
    status: 413,
    code: 'payload_too_large',
  },
  { name: 'unknown route', method: 'GET', url: '/api/v1/no-such-thing', status: 404, code: 'not_found' },
  {
    name: 'bad uuid in path',
    method: 'DELETE',
    url: '/api/v1/workspaces/not-a-uuid/api-keys/also-not',
    auth: true,
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'token switch with wrong type',
    method: 'POST',
    url: '/api/v1/auth/token',
    body: '{"workspace_id":42}',
    auth: true,
    status: 400,
    code: 'invalid_request',
  },
  {
    name: 'proto pollution attempt',
    method: 'POST',
    url: SIGNIN,
    body: '{"__proto__":{"x":1},"email":"a@example.com","password":"12345678"}',
    status: 400,
  },
];

describe('malformed requests get a 4xx problem+json, never a 500', () => {
  it.each(CASES)('$name → $status', async (c) => {
    const owner = c.auth ? await signUp(ctx.app) : undefined;
    const headers: Record<string, string> = {};
    if (c.body !== undefined) headers['content-type'] = c.contentType ?? JSON_TYPE;
    if (owner) headers.authorization = owner.headers.authorization;
    const res = await ctx.app.inject({ method: c.method, url: c.url, headers, payload: c.body });
    expectProblem(res, c.status, c.code);
    expect(res.statusCode).toBeLessThan(500);
  });
});
