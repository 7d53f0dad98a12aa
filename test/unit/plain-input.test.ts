import { describe, expect, it } from 'vitest';
import { plainQuery } from '../../src/http/plain-input.js';

describe('plainQuery: the query strings a GET lane takes', () => {
  it('reads name=value pairs, each named once, into an object without a prototype', () => {
    const query = plainQuery('a=1&b=&c=x.y-z_~:/');
    expect(query).toEqual({ a: '1', b: '', c: 'x.y-z_~:/' });
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(plainQuery('')).toEqual({});
  });

  it.each([
    ['a percent-escape', 'a=%41'],
    ['a plus sign', 'a=b+c'],
    ['a fragment', 'a=b#c'],
    ['a space', 'a=b c'],
    ['a control character', 'a=b\u0001'],
    ['non-ASCII text', 'a=größe'],
    ['a repeated name', 'a=1&a=2'],
    ['a name without a value', 'a=1&b'],
    ['an empty name', '=1'],
    ['an empty pair', 'a=1&&b=2'],
    ['a trailing &', 'a=1&'],
    ['a second =', 'a=b=c'],
    ['__proto__', '__proto__=1'],
    ['constructor', 'constructor=1'],
    ['more than 2 KiB', `a=${'x'.repeat(2100)}`],
  ])('leaves %s to Fastify', (_name, query) => {
    expect(plainQuery(query)).toBeUndefined();
  });
});
