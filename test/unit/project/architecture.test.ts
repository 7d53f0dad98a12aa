import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The walls between the layers, checked on the import graph of the project's own files:
 * - a worker process loads nothing of the HTTP layer: following every import that loads code (type-only
 *   imports load nothing), no file under src/http/ or src/api/, no routes module, no Fastify;
 * - services, stores, the device edge's policy (src/edge/) and the composition root load no Fastify and
 *   no routes module either, and do not even name one in a type-only import.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...filesUnder(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

interface Edge {
  specifier: string;
  /** `import type …`, `export type … from`, or an import whose every name is `type`. */
  typeOnly: boolean;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs x
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

const edgesCache = new Map<string, Edge[]>();
function edgesOf(file: string): Edge[] {
  let found = edgesCache.get(file);
  if (!found) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
    found = [];
    for (const node of source.statements) {
      if (!(ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) continue;
      if (!node.moduleSpecifier || !ts.isStringLiteral(node.moduleSpecifier)) continue;
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    }
    edgesCache.set(file, found);
  }
  return found;
}

/** A project file (relative to the root, `.ts`) or a package name (`fastify`, `@fastify/swagger`). */
function resolveSpecifier(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) {
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  }
  return relative(ROOT, resolve(ROOT, dirname(from), specifier)).replace(/\.js$/, '.ts');
}

/** Every module `entry` loads when it runs, each with the chain of imports that leads to it. */
function reachable(entry: string): Map<string, string[]> {
  const paths = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const edge of edgesOf(file)) {
      if (edge.typeOnly) continue;
      const target = resolveSpecifier(file, edge.specifier);
      if (paths.has(target)) continue;
      paths.set(target, [...paths.get(file)!, target]);
      if (target.endsWith('.ts')) queue.push(target);
    }
  }
  return paths;
}

const isFastify = (m: string) => m === 'fastify' || m.startsWith('@fastify/');
const isRoutes = (m: string) => m.endsWith('.routes.ts');
const isHttpLayer = (m: string) => m.startsWith('src/http/') || m.startsWith('src/api/');

/** The forbidden modules `entry` loads, as readable import chains. */
function breaches(entry: string, forbidden: (module: string) => boolean): string[] {
  return [...reachable(entry)].filter(([m]) => forbidden(m)).map(([, chain]) => chain.join(' → '));
}

/** The forbidden modules `file` names in any import of its own, type-only ones included. */
function namedBreaches(file: string, forbidden: (module: string) => boolean): string[] {
  return edgesOf(file)
    .map((e) => resolveSpecifier(file, e.specifier))
    .filter(forbidden)
    .map((m) => `${file} → ${m}`);
}

const workerFiles = filesUnder('workers', (p) => p.endsWith('.ts'));
/** Everything under src/ but the HTTP layer itself: the routes modules, src/http/, src/api/ and the API entry point. */
const serviceSideFiles = filesUnder(
  'src',
  (p) => p.endsWith('.ts') && !isRoutes(p) && !isHttpLayer(p) && p !== 'src/main.ts',
);

describe('the wall between the HTTP layer and the rest', () => {
  it('finds the files it guards', () => {
    expect(workerFiles).toContain('workers/main.ts');
    expect(serviceSideFiles).toContain('src/apps/apps.service.ts');
    expect(serviceSideFiles.length).toBeGreaterThan(20);
  });

  it('knows a breach when it sees one, and that a type-only import loads nothing', () => {
    expect(breaches('src/main.ts', isFastify).length).toBeGreaterThan(0);
    expect(breaches('src/main.ts', isRoutes).length).toBeGreaterThan(0);
    // src/http/types.ts names Fastify's types only.
    expect(namedBreaches('src/http/types.ts', isFastify).length).toBeGreaterThan(0);
    expect(breaches('src/http/types.ts', isFastify)).toEqual([]);
  });

  it.each(workerFiles)(
    '%s loads nothing under src/http/ or src/api/, no routes module and no Fastify',
    (file) => {
      expect(breaches(file, (m) => isHttpLayer(m) || isRoutes(m) || isFastify(m))).toEqual([]);
    },
  );

  it.each(serviceSideFiles)('%s loads no routes module and no Fastify, nor names one', (file) => {
    const forbidden = (m: string) => isRoutes(m) || isFastify(m);
    expect([...breaches(file, forbidden), ...namedBreaches(file, forbidden)]).toEqual([]);
  });
});

/**
 * The folders of the product, in layers from the ground up. A folder imports only folders of its own
 * layer or of a layer below, and no two folders reach each other through imports (type-only ones
 * included): the import graph of folders has no cycle. A folder of src/ counts as one, and so does each
 * of the other top folders; a file straight under src/ is an entry point of its own.
 */
const LAYERS: ReadonlyArray<{ name: string; folders: readonly string[] }> = [
  { name: 'contracts', folders: ['shared'] },
  { name: 'portable clients', folders: ['client', 'sdk'] },
  { name: 'platform', folders: ['src/platform'] },
  {
    name: 'foundations',
    folders: ['src/config', 'src/access', 'src/plans', 'src/edge', 'src/migrations'],
  },
  { name: 'HTTP plumbing', folders: ['src/http'] },
  {
    name: 'records every feature writes',
    folders: ['src/audit', 'src/webhooks', 'src/email-verification', 'src/console'],
  },
  {
    name: 'workspaces and their apps',
    folders: ['src/workspaces', 'src/apps', 'src/devices', 'src/bundles'],
  },
  {
    name: 'releases and accounts',
    folders: [
      'src/releases',
      'src/members',
      'src/invitations',
      'src/api-keys',
      'src/auth',
      'src/password-reset',
    ],
  },
  {
    name: 'routing and device data',
    folders: [
      'src/routing',
      'src/channels',
      'src/overrides',
      'src/updates',
      'src/analytics',
      'src/spikes',
      'src/intake',
      'src/ingest',
      'src/compatibility',
    ],
  },
  {
    name: 'protocol adapters and release flows',
    folders: ['src/expo', 'src/deltas', 'src/signing', 'src/promotion', 'src/codepush', 'src/capacitor'],
  },
  { name: 'process metrics', folders: ['src/metrics'] },
  { name: 'composition root', folders: ['src/container', 'src/health'] },
  { name: 'assembly of the API', folders: ['src/api'] },
  {
    name: 'entry points',
    folders: [
      'src/main.ts',
      'src/migrate.ts',
      'src/admin.ts',
      'src/blobs-migrate.ts',
      'src/clickhouse-to-cluster.ts',
      'workers',
      'cli',
    ],
  },
];

/**
 * Imports that still run against the layers, each to be cut (folder -> folder: the files that make it).
 * The list only shrinks: an entry whose import is gone fails too, so it is struck when the cut is made.
 */
const NOT_YET_CUT: readonly string[] = [
  // Sign-in and password replacement end pending resets.
  'src/auth -> src/password-reset',
  // Expo patches are indexed from the deltas store's rows.
  'src/expo -> src/deltas',
  // A member's removal revokes their API keys and a role change caps them; invites go through invitations.
  'src/members -> src/api-keys',
  'src/members -> src/invitations',
  // An override is applied with the update check's resolution.
  'src/overrides -> src/updates',
  // A push asks for its deltas and reads its package facts.
  'src/releases -> src/deltas',
];

const SCANNED = ['src', 'workers', 'cli', 'client', 'shared', 'sdk'];

/** The folder (or entry file) a project path belongs to, or undefined outside the scanned folders. */
function folderOf(path: string): string | undefined {
  const parts = path.split('/');
  if (!SCANNED.includes(parts[0]!)) return undefined;
  if (parts[0] !== 'src') return parts[0];
  return parts.length > 2 ? `src/${parts[1]}` : path;
}

/** Every import of `file` as a project path, dynamic `import('…')` included; packages `@ota/x` as `x/`. */
function importsOf(file: string): string[] {
  const specifiers = edgesOf(file).map((e) => e.specifier);
  const text = readFileSync(join(ROOT, file), 'utf8');
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(m[1]!);
  return specifiers.flatMap((s) => {
    if (s.startsWith('@ota/')) return [`${s.split('/')[1]}/index.ts`];
    return s.startsWith('.') ? [resolveSpecifier(file, s)] : [];
  });
}

/** folder -> folder -> the imports (file → file) that make the arrow. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  const isSource = (p: string) => /\.(ts|tsx)$/.test(p) && !p.endsWith('.d.ts') && !p.includes('/dist/');
  for (const top of SCANNED) {
    for (const file of filesUnder(top, (p) => isSource(p) && !p.includes('node_modules'))) {
      const from = folderOf(file)!;
      for (const target of importsOf(file)) {
        const to = folderOf(target);
        if (to === undefined || to === from) continue;
        if (!graph.has(from)) graph.set(from, new Map());
        const arrows = graph.get(from)!;
        arrows.set(to, [...(arrows.get(to) ?? []), `${file} → ${target}`]);
      }
    }
  }
  return graph;
}

const layerOf = new Map(LAYERS.flatMap((layer, i) => layer.folders.map((f) => [f, i] as const)));
const graph = folderGraph();
const arrows = [...graph].flatMap(([from, tos]) => [...tos].map(([to, files]) => ({ from, to, files })));
const cut = (a: { from: string; to: string }) => NOT_YET_CUT.includes(`${a.from} -> ${a.to}`);

describe('folders import downward only', () => {
  it('knows every folder it finds, each once', () => {
    const listed = LAYERS.flatMap((l) => l.folders);
    expect(new Set(listed).size).toBe(listed.length);
    const found = new Set(arrows.flatMap((a) => [a.from, a.to]));
    expect([...found].filter((f) => !layerOf.has(f))).toEqual([]);
    expect(found.has('src/api')).toBe(true);
    expect(arrows.length).toBeGreaterThan(100);
  });

  it('finds no import from a lower layer to a higher one', () => {
    const upward = arrows
      .filter((a) => !cut(a) && layerOf.get(a.from)! < layerOf.get(a.to)!)
      .map((a) => `${a.from} -> ${a.to}: ${a.files.join(', ')}`);
    expect(upward).toEqual([]);
  });

  it('finds no two folders that import each other, nor any longer circle of folders', () => {
    const kept = arrows.filter((a) => !cut(a));
    const pairs = kept
      .filter((a) => a.from < a.to && kept.some((b) => b.from === a.to && b.to === a.from))
      .map((a) => `${a.from} <-> ${a.to}`);
    expect(pairs).toEqual([]);
    // Kahn's algorithm: what is left once every folder without an importer is taken away is a circle.
    const importers = new Map<string, number>();
    for (const a of kept) importers.set(a.to, (importers.get(a.to) ?? 0) + 1);
    const folders = new Set(kept.flatMap((a) => [a.from, a.to]));
    const ready = [...folders].filter((f) => !importers.get(f));
    while (ready.length > 0) {
      const f = ready.pop()!;
      folders.delete(f);
      for (const a of kept.filter((k) => k.from === f)) {
        const left = importers.get(a.to)! - 1;
        importers.set(a.to, left);
        if (left === 0) ready.push(a.to);
      }
    }
    expect([...folders]).toEqual([]);
  });

  it('holds each import not yet cut to be still there: the list only shrinks', () => {
    const present = new Set(arrows.map((a) => `${a.from} -> ${a.to}`));
    expect(NOT_YET_CUT.filter((a) => !present.has(a))).toEqual([]);
  });
});
