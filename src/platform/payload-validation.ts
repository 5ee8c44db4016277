// IoT payload schemas (docs/CONTRACT.md#v2-schemas): a tree of named, typed fields that
// describes a JSON payload from its root, e.g. [{id: "data", type: "object",
// fields: [{id: "tempF", type: "float"}]}] for {"data": {"tempF": 72.5}}.
//
// `schemaFields` validates a schema definition (the body of POST /v2/schemas);
// `validatePayload` checks an ingested payload against a stored schema and
// names the first offending path, e.g. `data.tempF: expected float, got string`.
//
// Matching rules: a declared field must have its declared type when present;
// absent and null fields are accepted (devices omit readings they do not
// have) unless the field says `required: true`, and keys the schema does not
// declare are accepted (the platform took "any kind of data":
// docs/CONTRACT.md#v2-schemas) unless their object field says
// `additionalProperties: false`. An object field without nested fields
// accepts any object. `isArray` fields are arrays whose every element has the
// declared type (and, for objects, the nested fields' rules).
import { z } from 'zod';
import { FIELD_TYPES, type FieldType, type SchemaField } from '../db/schemas.js';

export { type SchemaField } from '../db/schemas.js';

/** Limits of a schema definition. */
const SCHEMA_LIMITS = { maxDepth: 10, maxFields: 1000, maxFieldsPerLevel: 200 } as const;

const fieldType = z
  // "int" is the spelling of the platform docs' prose, their examples use "integer" (docs/CONTRACT.md#v2-schemas).
  .enum([...FIELD_TYPES, 'int'])
  .transform((t): FieldType => (t === 'int' ? 'integer' : t));

const fieldObject = z
  .object({
    id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[^.[\]]+$/, 'must not contain ".", "[" or "]"'),
    type: fieldType,
    isArray: z.boolean().optional(),
    required: z.boolean().optional().describe('true: the payload must have the field, and not null (400 naming it)'),
    additionalProperties: z
      .boolean()
      .optional()
      .describe(
        'an object field with fields: false refuses keys its fields do not declare (400 naming the key); true by default',
      ),
    get fields() {
      return z.array(fieldObject).max(SCHEMA_LIMITS.maxFieldsPerLevel).optional();
    },
  })
  .strict()
  // named, so that generated JSON Schema refers to it as #/$defs/SchemaField
  .meta({ id: 'SchemaField' });

type FieldInput = z.output<typeof fieldObject>;

/** Structural rules zod cannot state field by field: nesting only under objects, unique ids per level, depth and size. */
function checkTree(fields: readonly FieldInput[], ctx: z.RefinementCtx): void {
  let total = 0;
  const walk = (level: readonly FieldInput[], path: (string | number)[], depth: number) => {
    const seen = new Set<string>();
    level.forEach((field, i) => {
      total++;
      if (seen.has(field.id))
        ctx.addIssue({ code: 'custom', path: [...path, i, 'id'], message: `duplicate field id "${field.id}"` });
      seen.add(field.id);
      if (field.additionalProperties !== undefined && field.type !== 'object') {
        ctx.addIssue({
          code: 'custom',
          path: [...path, i, 'additionalProperties'],
          message: 'only fields of type object may say additionalProperties',
        });
      } else if (field.additionalProperties === false && !field.fields?.length) {
        ctx.addIssue({
          code: 'custom',
          path: [...path, i, 'additionalProperties'],
          message: 'false needs the fields the object may have',
        });
      }
      if (!field.fields) return;
      if (field.type !== 'object') {
        ctx.addIssue({
          code: 'custom',
          path: [...path, i, 'fields'],
          message: 'only fields of type object may have nested fields',
        });
        return;
      }
      if (depth >= SCHEMA_LIMITS.maxDepth) {
        ctx.addIssue({
          code: 'custom',
          path: [...path, i, 'fields'],
          message: `fields nest at most ${SCHEMA_LIMITS.maxDepth} levels deep`,
        });
        return;
      }
      walk(field.fields, [...path, i, 'fields'], depth + 1);
    });
  };
  walk(fields, [], 1);
  if (total > SCHEMA_LIMITS.maxFields)
    ctx.addIssue({ code: 'custom', path: [], message: `a schema has at most ${SCHEMA_LIMITS.maxFields} fields` });
}

/** The `fields` of a schema definition, validated recursively. */
export const schemaFields = z
  .array(fieldObject)
  .min(1)
  .max(SCHEMA_LIMITS.maxFieldsPerLevel)
  .superRefine(checkTree)
  .transform((fields) => fields as SchemaField[]);

/** The JSON type of a value, in the vocabulary of the error messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  return typeof value;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matchesScalar(type: Exclude<FieldType, 'object'>, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'timestamp': // Unix time in milliseconds, as everywhere in the ingestion API
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'datetime':
      return typeof value === 'string' && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
  }
}

const join = (path: string, id: string) => (path ? `${path}.${id}` : id);

/**
 * Every violation of `payload` against `fields`, up to `limit`; empty when
 * the payload matches. `additionalProperties` false: keys at the root that
 * `fields` do not declare are refused too.
 */
export function payloadViolations(
  fields: readonly SchemaField[],
  payload: unknown,
  limit = 10,
  additionalProperties = true,
): string[] {
  const out: string[] = [];
  const report = (path: string, expected: string, value: unknown) => {
    if (out.length < limit) out.push(`${path || '(root)'}: expected ${expected}, got ${describe(value)}`);
  };
  const checkValue = (field: SchemaField, value: unknown, path: string) => {
    if (field.type === 'object') {
      if (!isPlainObject(value)) return report(path, 'object', value);
      if (field.fields) checkObject(field.fields, value, path, field.additionalProperties !== false);
    } else if (!matchesScalar(field.type, value)) {
      report(path, field.type, value);
    }
  };
  const checkObject = (
    level: readonly SchemaField[],
    object: Record<string, unknown>,
    path: string,
    othersAllowed: boolean,
  ) => {
    for (const field of level) {
      if (out.length >= limit) return;
      const value = Object.hasOwn(object, field.id) ? object[field.id] : undefined;
      const fieldPath = join(path, field.id);
      if (value === undefined || value === null) {
        if (field.required && out.length < limit)
          out.push(`${fieldPath}: required, ${value === null ? 'got null' : 'missing'}`);
        continue;
      }
      if (!field.isArray) {
        checkValue(field, value, fieldPath);
      } else if (!Array.isArray(value)) {
        report(fieldPath, `array of ${field.type}`, value);
      } else {
        value.forEach((element, i) => checkValue(field, element, `${fieldPath}[${i}]`));
      }
    }
    if (othersAllowed) return;
    const declared = new Set(level.map((f) => f.id));
    for (const key of Object.keys(object)) {
      if (out.length >= limit) return;
      if (!declared.has(key))
        out.push(
          `${join(path, key)}: not in the schema, which allows no other keys here (additionalProperties: false)`,
        );
    }
  };
  if (!isPlainObject(payload)) report('', 'object', payload);
  else checkObject(fields, payload, '', additionalProperties);
  return out;
}

type StoredSchema = readonly SchemaField[] | { fields: readonly SchemaField[]; additionalProperties?: boolean };

/**
 * Checks an ingested payload against a stored schema (a SchemaRow, or its
 * `fields`). Returns the first violation (`data.tempF: expected float, got
 * string`), or undefined when the payload matches.
 */
export function validatePayload(schema: StoredSchema, payload: unknown): string | undefined {
  if (Array.isArray(schema)) return payloadViolations(schema as readonly SchemaField[], payload, 1)[0];
  const row = schema as Exclude<StoredSchema, readonly SchemaField[]>;
  return payloadViolations(row.fields, payload, 1, row.additionalProperties !== false)[0];
}
