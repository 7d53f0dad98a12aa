import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * shared/, client/ and sdk/ are packages (@ota/shared, @ota/client, @ota/sdk): each builds on its own and
 * reaches another only by package name, so the SDK can be lifted out of this repository and installed in
 * an app. A relative import that climbs out of its folder would work here and break there.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PACKAGES = ['shared', 'client', 'sdk'] as const;
const run = promisify(execFile);

function sourcesOf(pkg: string): string[] {
  return readdirSync(join(ROOT, pkg), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(pkg, entry.name));
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function manifest(pkg: string): { name: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8'));
}

describe('the import wall around each package', () => {
  const files = PACKAGES.flatMap(sourcesOf);

  it('has files to check in every package', () => {
    for (const pkg of PACKAGES) expect(sourcesOf(pkg).length, pkg).toBeGreaterThan(0);
  });

  it.each(files)('%s imports by relative path only inside its own folder', (file) => {
    const folder = join(ROOT, file.split(sep)[0]!);
    for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
      const target = resolve(dirname(join(ROOT, file)), spec);
      expect(relative(folder, target).startsWith('..'), `${file} imports ${spec}`).toBe(false);
    }
  });

  it.each(files)('%s names in its package.json every package it imports', (file) => {
    const deps = Object.keys(manifest(file.split(sep)[0]!).dependencies ?? {});
    for (const spec of importsOf(file).filter((s) => s.startsWith('@ota/'))) {
      const name = spec.split('/').slice(0, 2).join('/');
      expect(deps, `${file} imports ${spec}`).toContain(name);
    }
  });
});

describe('the packages build on their own', () => {
  // Only the three folders (no dist/), the compiler options they extend and node_modules/@ota links to the
  // copies: anything reaching outside them fails to compile or to load.
  const work = mkdtempSync(join(tmpdir(), 'ota-packages-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('compiles with `tsc -b sdk` and loads the SDK by name from its dist/', async () => {
    cpSync(join(ROOT, 'tsconfig.json'), join(work, 'tsconfig.json'));
    mkdirSync(join(work, 'node_modules', '@ota'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(work, 'node_modules', '@types'));
    for (const pkg of PACKAGES) {
      cpSync(join(ROOT, pkg), join(work, pkg), {
        recursive: true,
        filter: (path) => !relative(join(ROOT, pkg), path).split(sep).includes('dist'),
      });
      symlinkSync(join(work, pkg), join(work, 'node_modules', '@ota', pkg));
    }
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'sdk'], { cwd: work });

    // A child Node process, not this test's loader: it resolves `@ota/sdk` through `exports` as an app would.
    const probe = `import('@ota/sdk').then((sdk) => console.log(JSON.stringify(Object.keys(sdk).sort())))`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd: work });
    const names: string[] = JSON.parse(stdout);
    expect(names).toEqual(
      expect.arrayContaining(['OtaUpdates', 'EventQueue', 'ApiError', 'verifyRsaSha256']),
    );

    const client = pathToFileURL(join(work, 'client', 'dist', 'index.js')).href;
    const { stdout: clientOut } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import(${JSON.stringify(client)}).then((c) => console.log(typeof c.OtaClient))`,
      ],
      { cwd: work },
    );
    expect(clientOut.trim()).toBe('function');
  }, 120_000);
});
