import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { sendProblem } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import { projectRoot } from '../platform/paths.js';

/** The router's maxParamLength (src/http/app.ts). */
const MAX_PARAM_LENGTH = 200;

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

/**
 * Serves the built console at `/` when console/dist exists (the API works without it). Files are routed
 * one by one (no wildcard), so the catch-all below only sees paths that are not files: a page path gets
 * index.html (the console routes in the browser), an unknown /api path or a missing asset gets the usual
 * problem+json 404.
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
    // The console is built into this folder while the API runs in development; never send a dot-file.
    serveDotFiles: false,
    cacheControl: false,
    setHeaders: (res, path) => {
      if (path.endsWith('.html')) {
        res.setHeader('cache-control', 'no-cache');
        res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader('referrer-policy', 'same-origin');
      } else {
        // Vite names every asset by its content hash: a changed file has a new name.
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        res.setHeader('x-content-type-options', 'nosniff');
      }
    },
  });

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const last = path.slice(path.lastIndexOf('/') + 1);
    const isApi = path === '/api' || path.startsWith('/api/');
    // An API path whose parameter passed the router's maxParamLength falls through to this catch-all.
    if (isApi && path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH)) {
      return sendProblem(
        reply,
        414,
        'uri_too_long',
        `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`,
      );
    }
    if (isApi || last.includes('.')) {
      return sendProblem(reply, 404, 'not_found', `No route ${request.method} ${path}.`);
    }
    // setHeaders above gives index.html its no-cache and security headers.
    return reply.sendFile('index.html', dir);
  });
}
