import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../../cli/program.js';
import { docBlocks, exampleModule, shellWords } from '../../helpers/doc-blocks.js';

/**
 * The examples of docs/guides/cli.md and client-and-sdk.md, run here against a scripted fetch (the live runs are in the CLI story tests):
 * the code must compile, call methods that exist, and behave as the text around it says.
 */
const APP = '7d3c2a10-5b1e-4c8f-9a6d-2e4f6a8b0c1d';
const MODULE = 'a1b2c3d4-0000-4000-8000-000000000001';
const BUNDLE = new TextEncoder().encode('console.log("hello from a bundle");');
const SHA = createHash('sha256').update(BUNDLE).digest('hex');
const written: string[] = [];

function scriptedService() {
  const seen: string[] = [];
  const release = { id: MODULE, app_id: APP, version: '1.0.0', channel: 'production', rollout_pct: 100 };
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = new URL(url).pathname;
    seen.push(`${method} ${path}`);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (method === 'POST' && path === '/api/v1/apps') return json(201, { id: APP, name: 'My App' });
    if (method === 'PUT' && path === `/api/v1/apps/${APP}/bundles`)
      return json(201, { sha256: SHA, size: BUNDLE.length });
    if (method === 'POST' && path === '/api/v1/modules') return json(201, release);
    if (path === `/api/v1/modules/${MODULE}/rollout`)
      return json(402, {
        status: 402,
        code: 'plan_upgrade_required',
        detail: 'Upgrade the plan to continue.',
      });
    if (path === `/api/v1/apps/${APP}/modules`)
      return json(200, { modules: [{ ...release, stats: { failure_rate: 0.025 } }] });
    if (path === '/api/v1/updates/check')
      return json(200, {
        update: {
          module_id: MODULE,
          version: '1.0.0',
          sha256: SHA,
          size: BUNDLE.length,
          url: `http://127.0.0.1:8080/api/v1/bundles/${SHA}`,
          mandatory: false,
          notes: '',
        },
      });
    if (path === `/api/v1/bundles/${SHA}`) return new Response(new Uint8Array(BUNDLE));
    if (path === '/api/v1/devices/events')
      return json(202, { accepted: JSON.parse(String(init.body)).events.length });
    return json(404, { status: 404, code: 'not_found', detail: path });
  });
  return { fetch, seen };
}

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const path of written.splice(0)) await rm(path, { force: true });
});

describe('docs/guides examples', () => {
  it('the control-API client example runs and prints the 402 upgrade message', async () => {
    const service = scriptedService();
    vi.stubGlobal('fetch', service.fetch);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const [code] = docBlocks('docs/guides/client-and-sdk.md', 'Control-API client', 'ts');
    const path = await exampleModule(code!, 'client', [['process.env.OTA_API_KEY!', "'ota_example'"]]);
    written.push(path);
    await import(path);
    expect(service.seen).toEqual([
      'POST /api/v1/apps',
      `PUT /api/v1/apps/${APP}/bundles`,
      'POST /api/v1/modules',
      `PUT /api/v1/modules/${MODULE}/rollout`,
      `GET /api/v1/apps/${APP}/modules`,
    ]);
    expect(log.mock.calls).toEqual([['Upgrade the plan to continue.'], [['1.0.0: 2.5 % failing']]]);
  });

  it('the device SDK example checks, downloads, verifies and reports', async () => {
    const service = scriptedService();
    vi.stubGlobal('fetch', service.fetch);
    const [code] = docBlocks('docs/guides/client-and-sdk.md', 'Device SDK', 'ts');
    const path = await exampleModule(code!, 'sdk', [
      ["'<app id>'", `'${APP}'`],
      ["'<a stable id for this install>'", "'readme-device'"],
    ]);
    written.push(path);
    await import(path);
    expect(service.seen).toEqual([
      'POST /api/v1/updates/check',
      `GET /api/v1/bundles/${SHA}`,
      'POST /api/v1/devices/events',
    ]);
    const sent = JSON.parse(String(service.fetch.mock.calls[2]![1]!.body));
    expect(sent.events.map((e: { type: string }) => e.type)).toEqual(['download', 'activation']);
  });

  it('every line of the CLI example names a real command with real options', () => {
    const [block] = docBlocks('docs/guides/cli.md', 'Commands at a glance', 'sh');
    const lines = block!.split('\n').filter((l) => l.trim().startsWith('ota '));
    expect(lines.length).toBeGreaterThan(20);
    const program = buildProgram();
    const globals = program.options.map((o) => o.long);
    for (const line of lines) {
      const words = shellWords(line).slice(1);
      let command: Command = program;
      while (words.length > 0) {
        const sub = command.commands.find((c) => c.name() === words[0]);
        if (!sub) break;
        command = sub;
        words.shift();
      }
      expect(command.commands, `"${line}" stops at a command group`).toHaveLength(0);
      const known = [...command.options.map((o) => o.long), ...globals];
      for (const word of words.filter((w) => w.startsWith('--'))) {
        expect(known, `"${line}": ${word}`).toContain(word);
      }
    }
  });

  it('splits shell words like a shell does for these lines', () => {
    expect(shellWords('ota apps create "My App"   # note')).toEqual(['ota', 'apps', 'create', 'My App']);
    expect(shellWords('ota x --notes "a # b" ""')).toEqual(['ota', 'x', '--notes', 'a # b', '']);
  });
});
