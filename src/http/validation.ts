import { isUuid } from '@ota/shared/ids';
import { Ajv, type Options } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext the default import is the module object, whose `default` is the plugin.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ??
  formatsModule) as unknown as AddFormats;

/**
 * Schema keyword: a string that is a UUID is replaced by its lower-case form while the request is
 * validated, so every id reaching a service, a cache key or Postgres is in one canonical form. Other
 * strings are left as they are (the `format` beside it refuses them where only a UUID will do).
 */
export const CANONICAL_UUID = 'x-canonical-uuid';

const UPPER_HEX = /[A-F]/;

const base: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };

function withIdRules(ajv: Ajv): Ajv {
  addFormats(ajv);
  // ajv-formats' uuid also takes the `urn:uuid:` form, which Postgres refuses: only 8-4-4-4-12 is an id.
  ajv.addFormat('uuid', isUuid);
  ajv.addKeyword({
    keyword: CANONICAL_UUID,
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    validate: (enabled: boolean, data: string, _schema?: unknown, cxt?: DataValidationCxt) => {
      // Ids nearly always arrive in lower case already: one scan for an upper-case digit settles those
      // without the UUID pattern a second time (the `format` beside it has already run it) or a new string.
      if (enabled && cxt?.parentData && UPPER_HEX.test(data) && isUuid(data)) {
        (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
  });
  return ajv;
}

// Bodies are JSON with real types: "50" is not a number. Query strings and path params are text, so they
// are coerced ("?limit=50").
const bodyAjv = withIdRules(new Ajv({ ...base, coerceTypes: false }));
const textAjv = withIdRules(new Ajv({ ...base, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<
    FastifySchemaCompiler<unknown>
  >;
