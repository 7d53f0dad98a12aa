import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The walls between the layers, checked on the import graph of the project's own files:
 * - a worker process loads nothing of the HTTP layer: following every import that loads code (type-only
 *   imports load nothing), no file under src/http/, no routes module, no Fastify;
 * - services, stores, the device edge's policy (src/edge/) and the composition root load no Fastify and
 *   no routes module either, and do not even name one in a type-only import.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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
/** Everything under src/ but the HTTP layer itself: the routes modules, src/http/ and the API entry point. */
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

  it.each(workerFiles)('%s loads nothing under src/http/, no routes module and no Fastify', (file) => {
    expect(breaches(file, (m) => isHttpLayer(m) || isRoutes(m) || isFastify(m))).toEqual([]);
  });

  it.each(serviceSideFiles)('%s loads no routes module and no Fastify, nor names one', (file) => {
    const forbidden = (m: string) => isRoutes(m) || isFastify(m);
    expect([...breaches(file, forbidden), ...namedBreaches(file, forbidden)]).toEqual([]);
  });
});
