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
 * True when the JSON text nests deeper than `max`, read from the text alone: for text JSON.parse took, so
 * its strings are closed. Strings are skipped whole (indexOf finds their closing quote, an escaped quote
 * being one after an odd run of backslashes), and the brackets between them counted up and down. A batch of
 * a hundred events opens a hundred objects, past what mayNestDeeperThan lets through, but is only three
 * deep: this answers it for a third of the walk of the parsed value.
 */
export function jsonTextNestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max) return false;
  let depth = 0;
  let i = 0;
  const end = text.length;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // "
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) return false;
        let slash = quote - 1;
        while (text.charCodeAt(slash) === 92) slash--; // \
        from = quote + 1;
        if ((quote - 1 - slash) % 2 === 0) break;
      }
      i = from;
      continue;
    }
    if (c === 123 || c === 91) {
      // { [
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) {
      // } ]
      depth--;
    }
    i++;
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
