import type { TestContext } from './context.js';

export interface Downloaded {
  status: number;
  bytes: Buffer;
  headers: Record<string, string>;
}

/**
 * Fetches a download URL a device was handed, as a device would: the API's own URLs through inject (a
 * 302 to the store followed), any other URL (a presigned or CDN URL of the bucket) over HTTP.
 */
export async function download(
  ctx: TestContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<Downloaded> {
  if (url.startsWith(`${ctx.config.publicUrl}/`)) {
    const res = await ctx.app.inject({ method: 'GET', url: new URL(url).pathname, headers });
    if (res.statusCode === 302) return download(ctx, String(res.headers.location), headers);
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = String(v);
    return { status: res.statusCode, bytes: res.rawPayload, headers: flat };
  }
  const res = await fetch(url, { headers });
  const flat: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    flat[name] = value;
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: flat };
}
