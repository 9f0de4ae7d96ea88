import { test, expect } from '@playwright/test';
import { RESOURCE_KEYS } from '../../../src-shared/paths';
import { SPECS, type FieldType, type Spec } from '../../../src-standin/fields';
import { conditionFields, fieldsOf, formFields, type FieldKind } from '../../../src-renderer/src/features/supervisor/resource-fields';
import {
  fromLocalInput,
  getPath,
  inputOf,
  optionLabel,
  setPath,
  shownKind,
  toLocalInput,
  valueOf,
} from '../../../src-renderer/src/features/supervisor/record-form';
import { importRunes } from '../../support/runes';
import type * as StringsModule from '../../../src-renderer/src/features/supervisor/strings';
import type * as I18nModule from '../../../src-renderer/src/lib/i18n.svelte';

type Strings = typeof StringsModule;
type I18n = typeof I18nModule;

/** The stand-in's type of a (dotted) field, following nested objects. */
function standinType(spec: Spec, key: string): FieldType | undefined {
  const [head, ...rest] = key.split('.') as [string, ...string[]];
  const t = spec[head];
  if (!rest.length || t === undefined) return t;
  return typeof t === 'object' && t.kind === 'object' ? standinType(t.fields(), rest.join('.')) : undefined;
}

/** Whether a form kind is the same type as the stand-in's (which follows interface §2). */
function agrees(kind: FieldKind, t: FieldType): boolean {
  if (typeof t === 'string') {
    switch (kind.type) {
      case 'text':
        return t === 'string';
      case 'number':
        return kind.integer ? t === 'int' : t === 'number' || t === 'int';
      case 'boolean':
        return t === 'boolean';
      case 'date':
        return t === 'date';
      // A reference by bare id is an integer field.
      case 'ref':
        return kind.shape === 'id' && t === 'int';
      case 'any':
        return t === 'any' || t === 'string';
    }
  }
  if (kind.type === 'ref') return t.kind === 'ref' && kind.shape === 'object' && t.collection === kind.target;
  return kind.type === 'any';
}

test('the field table covers every field of the 27 resources with the type the stand-in stores', () => {
  expect(RESOURCE_KEYS).toHaveLength(27);
  for (const resource of RESOURCE_KEYS) {
    const spec = SPECS[resource];
    const fields = fieldsOf(resource);
    const keys = fields.map((f) => f.key);
    expect(new Set(keys).size, resource).toBe(keys.length);
    // Every stored field has a place in the form (a composite key through its parts).
    const tops = new Set(keys.map((k) => k.split('.')[0]));
    expect(
      Object.keys(spec).filter((k) => !tops.has(k)),
      resource,
    ).toEqual([]);
    for (const f of fields) {
      // §2.8 names a classification node's parent; v2 dropped it from what servers store (§9.9).
      if (resource === 'classification' && f.key === 'parent') continue;
      const t = standinType(spec, f.key);
      expect(t, `${resource}.${f.key} is stored`).toBeDefined();
      expect(agrees(f.kind, t!), `${resource}.${f.key}: ${JSON.stringify(f.kind)} vs ${JSON.stringify(t)}`).toBe(true);
    }
  }
  // References the interface or the seed tie to a list, and what saves do not take (§4.3, §9).
  const field = (resource: (typeof RESOURCE_KEYS)[number], key: string) => fieldsOf(resource).find((f) => f.key === key);
  expect(field('call', 'sessionId')?.kind).toEqual({ type: 'ref', target: 'userSession', shape: 'id' });
  expect(field('call', 'agentId')?.kind).toEqual({ type: 'ref', target: 'user', shape: 'id' });
  expect(field('userSession', 'groupConf')?.kind).toEqual({ type: 'ref', target: 'group', shape: 'object' });
  expect(
    fieldsOf('userSession')
      .filter((f) => f.readOnly)
      .map((f) => f.key),
  ).toEqual(['user', 'agent']);
  expect(
    fieldsOf('bot')
      .filter((f) => f.readOnly)
      .map((f) => f.key),
  ).toEqual(['agent']);
});

test('the form shows the fields a record carries beyond the table; conditions test references by id', () => {
  const fields = formFields('attribute', { id: 1, description: 'Plano', _links: { self: { href: '/x' } }, tenantId: 't' });
  expect(fields.slice(-2).map((f) => [f.key, f.label, f.kind.type])).toEqual([
    ['_links', null, 'any'],
    ['tenantId', null, 'any'],
  ]);
  // A composite key's parts cover the key itself.
  expect(formFields('userAgent', { associationId: { userId: 1, agentId: 2 } }).filter((f) => f.label === null)).toEqual([]);

  const keys = conditionFields('userSession', ['protocol', 'groupConf', 'tenantId']).map((f) => f.key);
  expect(keys).toContain('groupConf.id');
  expect(keys).toContain('user.id');
  expect(keys).not.toContain('groupConf');
  expect(keys.filter((k) => k === 'protocol')).toHaveLength(1);
  expect(keys.at(-1)).toBe('tenantId');
});

test('every field has words in English, pt-BR and Spanish, and no two fields of a resource share them', async () => {
  const { i18n } = await importRunes<I18n>('src-renderer/src/lib/i18n.svelte.ts');
  const { fieldLabel, fieldWordOf } = await importRunes<Strings>('src-renderer/src/features/supervisor/strings.ts');
  for (const language of ['en', 'pt-BR', 'es'] as const) {
    i18n.choose(language);
    await i18n.ready;
    for (const resource of RESOURCE_KEYS) {
      const words = fieldsOf(resource).map((f) => fieldLabel(f.label!));
      expect(
        words.filter((w, i) => words.indexOf(w) !== i),
        `${language} ${resource}`,
      ).toEqual([]);
      expect(words.every((w) => w.trim().length > 0)).toBe(true);
    }
  }
  i18n.choose(null);
  // A label typed in either language names the field.
  expect(fieldWordOf('Criado em')).toEqual(['createdAt']);
  expect(fieldWordOf('Created at')).toEqual(['createdAt']);
  expect(fieldWordOf('Group')).toContain('groupConf');
});

test('form values: dotted paths, inputs and what they write back, in any shape a record holds', () => {
  const rec = { id: 7, associationId: { userId: 3 } };
  expect(getPath(rec, 'associationId.userId')).toBe(3);
  expect(getPath(rec, 'id.x')).toBeUndefined();
  expect(setPath(rec, 'associationId.agentId', 2)).toEqual({ id: 7, associationId: { userId: 3, agentId: 2 } });
  expect(setPath(rec, 'associationId.userId', undefined)).toEqual({ id: 7 });
  expect(rec).toEqual({ id: 7, associationId: { userId: 3 } });

  const int: FieldKind = { type: 'number', integer: true };
  const ref: FieldKind = { type: 'ref', target: 'user', shape: 'object' };
  const byId: FieldKind = { type: 'ref', target: 'userSession', shape: 'id' };
  const flag: FieldKind = { type: 'boolean' };
  const date: FieldKind = { type: 'date' };
  const any: FieldKind = { type: 'any' };
  const text: FieldKind = { type: 'text' };
  // Numbers as numbers; emptied: left out when the record had nothing there, else null.
  expect(valueOf(int, '12', undefined, undefined)).toBe(12);
  expect(valueOf(int, '', 12, undefined)).toBeUndefined();
  expect(valueOf(int, '', 12, 12)).toBeNull();
  expect(valueOf(text, '', 'a', undefined)).toBeUndefined();
  expect(valueOf(text, '', 'a', 'a')).toBe('');
  // References in the shape the record uses there, else the field's own.
  expect(valueOf(ref, '5', undefined, undefined)).toEqual({ id: 5 });
  expect(valueOf(ref, '5', { id: 4, name: 'Ana' }, undefined)).toEqual({ id: 5 });
  expect(valueOf(ref, '5', 4, 4)).toBe(5);
  expect(valueOf(byId, '5', undefined, undefined)).toBe(5);
  expect(valueOf(byId, '5', { id: 4 }, undefined)).toEqual({ id: 5 });
  // JSON where it is JSON, text where the field held text.
  expect(valueOf(any, '{"a":1}', undefined, undefined)).toEqual({ a: 1 });
  expect(valueOf(any, '{"a":', undefined, undefined)).toBe('{"a":');
  expect(valueOf(any, '12', 'x', 'x')).toBe('12');

  // A value that does not fit its field's kind is shown and edited as JSON, never dropped.
  expect(shownKind(flag, { id: 3, name: 'Ana' })).toEqual(any);
  expect(shownKind(flag, null)).toEqual(flag);
  expect(shownKind(int, '12')).toEqual(any);
  expect(shownKind(date, 'yesterday')).toEqual(any);
  expect(shownKind(date, 1_773_491_400)).toEqual(date);
  expect(shownKind(ref, { id: '8' })).toEqual(ref);
  expect(shownKind(ref, 'ana.souza')).toEqual(any);
  expect(inputOf(any, { a: 1 })).toBe('{"a":1}');
  expect(inputOf(ref, { id: 8, name: 'Ana' })).toBe('8');
  expect(inputOf(text, null)).toBe('');

  // Date-times: through the local input and back to the same instant, with or without seconds.
  for (const iso of ['2026-03-14T12:30:00.000Z', '2026-11-23T20:04:05.000Z']) expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
  expect(toLocalInput('2026-11-23T17:04:05.123-03:00')).toBe(toLocalInput('2026-11-23T20:04:05Z'));
  expect(toLocalInput('not a date')).toBe('');
  expect(fromLocalInput('')).toBeNull();
  expect(valueOf(date, '2026-03-14T09:30', undefined, undefined)).toBe(new Date('2026-03-14T09:30').toISOString());
});

test('a picker names a record by its id and the words that tell it apart', () => {
  expect(optionLabel({ id: 3, name: 'Ana Souza', userName: 'ana.souza' })).toBe('#3 · Ana Souza');
  expect(optionLabel({ id: 12, protocol: '20261123000012', user: { id: 40, name: 'Maria Lima' } })).toBe(
    '#12 · 20261123000012 · Maria Lima',
  );
  expect(optionLabel({ id: 2, user: { id: 4, name: 'Bruno Alves' }, loginAttendance: 'bruno.alves' })).toBe(
    '#2 · bruno.alves · Bruno Alves',
  );
  expect(optionLabel({ id: 9 })).toBe('#9');
  expect(optionLabel({ id: 1, message: 'x'.repeat(100) })).toHaveLength(75);
});
