import { test, expect } from '@playwright/test';
import { z } from 'zod';
import { objectOf } from '../../../src-shared/schemas/common';
import { RESOURCE_SCHEMAS } from '../../../src-shared/schemas/resources';
import { SPECS } from '../../../src-standin/fields';

/** The top-level field names a resource schema describes (a recursive one is unwrapped once). */
function fieldNames(schema: z.ZodType): string[] {
  const inner = objectOf(schema instanceof z.ZodLazy ? (schema.unwrap() as z.ZodType) : schema);
  if (!inner) throw new Error(`not a record schema: ${schema.constructor.name}`);
  return Object.keys(inner.shape).sort();
}

/**
 * Fields the console reads that the stand-in does not store: from servers of the older version
 * (interface §9.9: a classification node lost `parent`), and under a name other servers use (a
 * message's session by its id alone, `sessionId`).
 */
const READ_ONLY_FROM_OLDER: Partial<Record<keyof typeof RESOURCE_SCHEMAS, readonly string[]>> = {
  classification: ['parent'],
  message: ['sessionId'],
};

// The console reads with the shared schemas; the stand-in validates queries and saves with its
// own field tree. A field added to one and not the other would pass every test of each side.
test('the stand-in knows exactly the fields the shared schemas describe, resource by resource', () => {
  const resources = Object.keys(RESOURCE_SCHEMAS) as Array<keyof typeof RESOURCE_SCHEMAS>;
  expect(resources.length).toBe(27);
  for (const key of resources) {
    const spec = SPECS[key];
    expect(spec, `the stand-in has no fields for ${key}`).toBeDefined();
    const older = READ_ONLY_FROM_OLDER[key] ?? [];
    const read = fieldNames(RESOURCE_SCHEMAS[key]);
    for (const f of older) expect(read, `${key}.${f} is listed as read from older servers`).toContain(f);
    expect(Object.keys(spec).sort(), `fields of ${key}`).toEqual(read.filter((f) => !older.includes(f)));
  }
});
