// fast-check arbitraries from the contracts' zod schemas, through zod's own JSON Schema conversion (the
// one the OpenAPI document uses): values of the shape each call declares (some valid, most not quite),
// with strings over all of Unicode. Covers the JSON Schema our schemas produce: objects, strings (length,
// e-mail), integers and numbers (bounds), booleans, null, arrays, enums, consts, unions and $refs.
import fc from 'fast-check';
import { z } from 'zod';

const MAX_STRING = 300;

function stringArbitrary(schema) {
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.string({ unit: 'binary' }));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
  return fc.oneof(
    fc.string({ minLength, maxLength, unit: 'binary' }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }),
    // Just past the limit: the boundary a validator gets wrong.
    ...(schema.maxLength !== undefined && schema.maxLength < 100_000
      ? [
          fc.string({
            minLength: schema.maxLength + 1,
            maxLength: schema.maxLength + 2,
            unit: 'grapheme-ascii',
          }),
        ]
      : []),
  );
}

function numberArbitrary(schema, integer) {
  const min =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  const ints = fc.integer({
    min: Math.max(min ?? -(2 ** 31), Number.MIN_SAFE_INTEGER),
    max: Math.min(max ?? 2 ** 31, Number.MAX_SAFE_INTEGER),
  });
  const edges = fc.constantFrom(0, -1, 1, 2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 1e308, -0);
  return integer ? fc.oneof(ints, edges) : fc.oneof(ints, edges, fc.double({ noNaN: true }));
}

function fromJsonSchema(schema, root) {
  if (schema === true || schema === undefined || Object.keys(schema).length === 0) return fc.jsonValue();
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
    return fc.constant(null).chain(() => fromJsonSchema((root.$defs ?? root.definitions)[name], root));
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => fromJsonSchema(s, root)));
  if (schema.allOf) return fromJsonSchema(Object.assign({}, ...schema.allOf), root);
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type) => fromJsonSchema({ ...schema, type }, root)));
  }
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, fromJsonSchema(value, root)]),
      );
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    case 'array':
      return fc.array(fromJsonSchema(schema.items, root), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue();
  }
}

/** An arbitrary of request bodies (or query values) shaped like `schema` as the client sends it. */
export function arbitraryFor(schema) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return fromJsonSchema(json, json);
}

/** `count` samples of `schema`'s shape, and as many of anything at all (wrong types, nesting). */
export function samples(schema, count, seed) {
  return [
    ...fc.sample(arbitraryFor(schema), { numRuns: count, seed }),
    ...fc.sample(fc.oneof(fc.jsonValue(), fc.object(), fc.array(fc.anything())), {
      numRuns: Math.ceil(count / 3),
      seed: seed + 1,
    }),
  ];
}
