import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/types.js';
import { projectRoot } from '../platform/paths.js';

/** Where `npm run build:console` puts the web console. */
export function consoleDistDir(): string {
  return join(projectRoot(), 'console', 'dist');
}

/**
 * The console's page only talks to this origin; no inline script or style is needed (uPlot and Preact set
 * styles through the CSS object model, which style-src does not restrict).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HTML_HEADERS = {
  'cache-control': 'no-cache',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * Serves the built console's files at `/` when console/dist exists (the API works without it). Files are
 * routed one by one (no wildcard route), so the API's routing, its 404s and 414s stay exactly as they are;
 * page paths reach the console through `consoleFallback` in the not-found handler.
 */
export async function consoleRoutes(app: App, options: { dir?: string } = {}): Promise<void> {
  const dir = options.dir ?? consoleDistDir();
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.info({ dir }, 'web console not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    serveDotFiles: false,
    cacheControl: false,
    setHeaders: (res, path) => {
      if (path.endsWith('.html')) {
        for (const [name, value] of Object.entries(HTML_HEADERS)) res.setHeader(name, value);
      } else {
        // Vite names every asset by its content hash: a changed file has a new name.
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        res.setHeader('x-content-type-options', 'nosniff');
      }
    },
  });
}

export type ConsoleFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

/**
 * For the not-found handler: a GET of a page path (not under /api, no file extension) answers the
 * console's index.html, so deep links and reloads land in the console, which routes in the browser.
 * Anything else is left to the problem+json 404. Undefined when the console is not built.
 */
export function consoleFallback(dir = consoleDistDir()): ConsoleFallback | undefined {
  const file = join(dir, 'index.html');
  if (!existsSync(file)) return undefined;
  const html = readFileSync(file);
  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const path = request.url.split('?')[0] ?? '/';
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (path === '/api' || path.startsWith('/api/') || last.includes('.')) return undefined;
    return reply
      .status(200)
      .headers({ ...HTML_HEADERS, 'content-type': 'text/html; charset=utf-8' })
      .send(html);
  };
}
