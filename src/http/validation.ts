import { Ajv, type Options } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext the default import is the module object, whose `default` is the plugin.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ??
  formatsModule) as unknown as AddFormats;

const base: Options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false };

// Bodies are JSON with real types: "50" is not a number. Query strings and path params are text, so they
// are coerced ("?limit=50").
const bodyAjv = addFormats(new Ajv({ ...base, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<
    FastifySchemaCompiler<unknown>
  >;
