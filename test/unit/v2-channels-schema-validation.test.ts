// IoT payload schemas: validating a schema definition, and a payload against it.
import { describe, expect, it } from 'vitest';
import {
  payloadViolations,
  schemaFields,
  validatePayload,
  type SchemaField,
} from '../../src/platform/payload-validation.js';
import { describeIssues } from '../../src/lib/zod-issues.js';

const weather: SchemaField[] = [
  {
    id: 'data',
    type: 'object',
    fields: [
      { id: 'tempF', type: 'float' },
      { id: 'humidity', type: 'integer' },
      { id: 'station', type: 'string' },
      { id: 'readAt', type: 'timestamp' },
      { id: 'observedAt', type: 'datetime' },
      { id: 'tags', type: 'string', isArray: true },
      { id: 'samples', type: 'object', isArray: true, fields: [{ id: 'v', type: 'float' }] },
      { id: 'extra', type: 'object' },
    ],
  },
];

describe('validatePayload', () => {
  it('accepts a matching payload, absent and null fields, and undeclared keys', () => {
    expect(
      validatePayload(weather, {
        data: {
          tempF: 72.5,
          humidity: 23,
          station: 'north',
          readAt: 1538403476637,
          observedAt: '2018-10-01T14:17:56.662Z',
          tags: ['a', 'b'],
          samples: [{ v: 1 }, { v: 2.5, other: 'x' }],
          extra: { anything: [1, 'two'] },
          undeclared: true,
        },
        top: 'level',
      }),
    ).toBeUndefined();
    expect(validatePayload(weather, {})).toBeUndefined();
    expect(validatePayload(weather, { data: { tempF: null } })).toBeUndefined();
    expect(validatePayload(weather, { data: { tempF: 72 } })).toBeUndefined(); // an integer is a float
  });

  it('names the offending path, the expected type and what it got', () => {
    expect(validatePayload(weather, { data: { tempF: '72' } })).toBe('data.tempF: expected float, got string');
    expect(validatePayload(weather, { data: { humidity: 23.5 } })).toBe('data.humidity: expected integer, got float');
    expect(validatePayload(weather, { data: 'x' })).toBe('data: expected object, got string');
    expect(validatePayload(weather, { data: [] })).toBe('data: expected object, got array');
    expect(validatePayload(weather, { data: { station: 5 } })).toBe('data.station: expected string, got integer');
    expect(validatePayload(weather, { data: { readAt: '2018-10-01' } })).toBe(
      'data.readAt: expected timestamp, got string',
    );
    expect(validatePayload(weather, { data: { readAt: 1.5 } })).toBe('data.readAt: expected timestamp, got float');
    expect(validatePayload(weather, { data: { observedAt: 'yesterday' } })).toBe(
      'data.observedAt: expected datetime, got string',
    );
    expect(validatePayload(weather, { data: { observedAt: '2018-13-45T99:00:00Z' } })).toBe(
      'data.observedAt: expected datetime, got string',
    );
    expect(validatePayload(weather, { data: { observedAt: 1538403476637 } })).toBe(
      'data.observedAt: expected datetime, got integer',
    );
  });

  it('checks arrays element by element', () => {
    expect(validatePayload(weather, { data: { tags: 'a' } })).toBe('data.tags: expected array of string, got string');
    expect(validatePayload(weather, { data: { tags: ['a', 3] } })).toBe('data.tags[1]: expected string, got integer');
    expect(validatePayload(weather, { data: { samples: [{ v: 1 }, { v: true }] } })).toBe(
      'data.samples[1].v: expected float, got boolean',
    );
    expect(validatePayload(weather, { data: { samples: [null] } })).toBe('data.samples[0]: expected object, got null');
  });

  it('wants an object at the root', () => {
    expect(validatePayload(weather, [1])).toBe('(root): expected object, got array');
    expect(validatePayload(weather, null)).toBe('(root): expected object, got null');
    expect(validatePayload(weather, 'text')).toBe('(root): expected object, got string');
  });

  it('lists every violation up to a limit', () => {
    const payload = { data: { tempF: 'x', humidity: 'y', station: 1 } };
    expect(payloadViolations(weather, payload)).toEqual([
      'data.tempF: expected float, got string',
      'data.humidity: expected integer, got string',
      'data.station: expected string, got integer',
    ]);
    expect(payloadViolations(weather, payload, 2)).toHaveLength(2);
    expect(payloadViolations(weather, { data: { tags: Array(50).fill(1) } }, 10)).toHaveLength(10);
  });

  it('does not read inherited properties', () => {
    expect(validatePayload([{ id: 'toString', type: 'string' }], {})).toBeUndefined();
  });
});

describe('schemaFields', () => {
  const parse = (fields: unknown) => {
    const result = schemaFields.safeParse(fields);
    return result.success
      ? { ok: true as const, data: result.data }
      : { ok: false as const, error: describeIssues(result.error) };
  };

  it('accepts nested object fields and normalises "int"', () => {
    const result = parse([
      {
        id: 'data',
        type: 'object',
        fields: [
          { id: 'n', type: 'int' },
          { id: 'list', type: 'string', isArray: true },
        ],
      },
    ]);
    expect(result).toEqual({
      ok: true,
      data: [
        {
          id: 'data',
          type: 'object',
          fields: [
            { id: 'n', type: 'integer' },
            { id: 'list', type: 'string', isArray: true },
          ],
        },
      ],
    });
  });

  it('names the offending field, however deep', () => {
    expect(parse([{ id: 'data', type: 'object', fields: [{ id: 'x', type: 'double' }] }]).error).toContain(
      '0.fields.0.type:',
    );
    expect(parse([{ id: 'data', type: 'string', fields: [{ id: 'x', type: 'float' }] }]).error).toBe(
      '0.fields: only fields of type object may have nested fields',
    );
    expect(
      parse([
        { id: 'a', type: 'string' },
        { id: 'a', type: 'float' },
      ]).error,
    ).toBe('1.id: duplicate field id "a"');
    expect(parse([{ id: 'a.b', type: 'string' }]).error).toContain('0.id:');
    expect(parse([{ id: 'a', type: 'string', unknown: 1 }]).error).toContain('Unrecognized key: "unknown"');
    expect(parse([]).ok).toBe(false);
  });

  it('limits the depth of a schema', () => {
    let deep: unknown = { id: 'leaf', type: 'string' };
    for (let i = 0; i < 12; i++) deep = { id: `level${i}`, type: 'object', fields: [deep] };
    expect(parse([deep]).error).toContain('fields nest at most 10 levels deep');
  });
});

describe('validatePayload with a stored schema row', () => {
  it('takes the row as well as its fields', () => {
    const row = { id: 'x', name: 'weather', fields: weather };
    expect(validatePayload(row, { data: { tempF: 'hot' } })).toBe('data.tempF: expected float, got string');
    expect(validatePayload(row, { data: { tempF: 1 } })).toBeUndefined();
  });
});

describe('required fields and additionalProperties', () => {
  const strict: SchemaField[] = [
    {
      id: 'data',
      type: 'object',
      required: true,
      additionalProperties: false,
      fields: [
        { id: 'tempF', type: 'float', required: true },
        { id: 'humidity', type: 'integer' },
        {
          id: 'samples',
          type: 'object',
          isArray: true,
          additionalProperties: false,
          fields: [{ id: 'v', type: 'float', required: true }],
        },
      ],
    },
  ];

  it('refuses a missing or null required field, naming it', () => {
    expect(validatePayload(strict, { data: { tempF: 70 } })).toBeUndefined();
    expect(validatePayload(strict, {})).toBe('data: required, missing');
    expect(validatePayload(strict, { data: { humidity: 3 } })).toBe('data.tempF: required, missing');
    expect(validatePayload(strict, { data: { tempF: null } })).toBe('data.tempF: required, got null');
    expect(validatePayload(strict, { data: { tempF: 1, samples: [{ v: 1 }, {}] } })).toBe(
      'data.samples[1].v: required, missing',
    );
  });

  it('refuses a key an object field with additionalProperties: false does not declare, naming it', () => {
    expect(validatePayload(strict, { data: { tempF: 70, tmepF: 71 } })).toBe(
      'data.tmepF: not in the schema, which allows no other keys here (additionalProperties: false)',
    );
    expect(validatePayload(strict, { data: { tempF: 70, samples: [{ v: 1, w: 2 }] } })).toBe(
      'data.samples[0].w: not in the schema, which allows no other keys here (additionalProperties: false)',
    );
    // by default, and at the root, other keys are still accepted
    expect(validatePayload(strict, { data: { tempF: 70 }, top: 'level' })).toBeUndefined();
    expect(validatePayload(weather, { data: { other: 1 } })).toBeUndefined();
    expect(payloadViolations(strict, { data: { humidity: 'x', a: 1 } })).toEqual([
      'data.tempF: required, missing',
      'data.humidity: expected integer, got string',
      'data.a: not in the schema, which allows no other keys here (additionalProperties: false)',
    ]);
  });

  it('refuses keys at the root when the schema itself says additionalProperties: false', () => {
    const row = { fields: strict, additionalProperties: false };
    expect(validatePayload(row, { data: { tempF: 70 } })).toBeUndefined();
    expect(validatePayload(row, { data: { tempF: 70 }, top: 'level' })).toBe(
      'top: not in the schema, which allows no other keys here (additionalProperties: false)',
    );
    expect(
      validatePayload({ fields: strict, additionalProperties: true }, { data: { tempF: 70 }, top: 'level' }),
    ).toBeUndefined();
    expect(payloadViolations(weather, { data: {}, a: 1, b: 2 }, 10, false)).toEqual([
      'a: not in the schema, which allows no other keys here (additionalProperties: false)',
      'b: not in the schema, which allows no other keys here (additionalProperties: false)',
    ]);
  });

  it('takes them in a schema definition, on object fields only for additionalProperties', () => {
    const parse = (fields: unknown) => {
      const result = schemaFields.safeParse(fields);
      return result.success ? result.data : describeIssues(result.error);
    };
    expect(parse(strict)).toEqual(strict);
    expect(parse([{ id: 'a', type: 'string', additionalProperties: false }])).toBe(
      '0.additionalProperties: only fields of type object may say additionalProperties',
    );
    expect(parse([{ id: 'a', type: 'object', additionalProperties: false }])).toBe(
      '0.additionalProperties: false needs the fields the object may have',
    );
    expect(parse([{ id: 'a', type: 'string', required: 'yes' }])).toMatch(/^0\.required: /);
  });
});
