import { badRequest } from '../platform/errors.js';

/**
 * How deep a JSON body may nest (objects and arrays). No request of the API needs a tenth of it (an Expo
 * app config in `extra` is a dozen levels); the bound keeps every body walkable by recursive code after
 * the parser (JSON.stringify, serialisers, validators), which overflows the stack a few thousand levels down.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text may nest deeper than `max`: it opens more than `max` objects and arrays in all.
 * A count of the text's braces and brackets (those inside strings counted too, so it can only err towards
 * a walk): most bodies have a handful, and then the parsed value needs no walk at all.
 */
export function mayNestDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max) return false;
  let opened = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 123 || c === 91) && ++opened > max) return true; // { [
  }
  return false;
}

/**
 * True when `root` nests deeper than `max`. Iterative (the value may nest far past the stack's reach);
 * strings and numbers are never visited, so a wide body costs one step per object or array.
 */
export function nestsDeeperThan(root: unknown, max: number): boolean {
  if (typeof root !== 'object' || root === null) return false;
  const values: object[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(value)) {
      for (const child of value) {
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const child = (value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

export function jsonTooDeep() {
  return badRequest(
    `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; no request needs that.`,
    'json_too_deep',
  );
}
