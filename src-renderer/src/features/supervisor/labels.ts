import type { ResourceKey } from '../../../../src-shared/paths';
import type { Operator } from '../../../../src-shared/operators';
import { i18n } from '../../lib/i18n.svelte';

/** Resource names and query operators as supervisors read them, in both languages. */
const lt = i18n.register('labels');

export const resourceLabel = (k: ResourceKey): string => lt(`res.${k}`);
export const operatorLabel = (op: Operator): string => lt(`op.${op}`);
export const logicLabel = (logic: 'AND' | 'OR'): string => lt(`logic.${logic}`);
