import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * A reference to a component schema (one with an `$id`, registered by `registerComponents`). The OpenAPI
 * document then names the shape once under `components.schemas` and clients generated from it get one type
 * per shape; the static type stays the referenced schema's.
 */
export function ref<T extends TSchema>(schema: T) {
  if (!schema.$id) throw new Error('ref(): the schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** The schema with one example value, which the OpenAPI document shows beside the request or answer. */
export function withExample<T extends TSchema>(schema: T, example: Static<T>): T {
  return { ...schema, examples: [example] };
}

/**
 * A JSON answer with its description and an example: the media-type form of a response, because an example
 * beside a `$ref` is dropped when the reference is resolved.
 */
export function answer<T extends TSchema>(description: string, schema: T, example?: Static<T>) {
  return Type.Unsafe<Static<T>>({
    description,
    content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
  });
}
