import type { ResourceKey } from '../../../../src-shared/paths';

/**
 * Which rule a save needs, when the service names its rules (users/rules). Configuration
 * resources need `config:write`, people and connections `admin:write`; the rest are work every
 * attendant does. With no rules known the form is offered and the service decides (403).
 */
const NEEDS: Partial<Record<ResourceKey, string>> = {
  messageBundleGroup: 'config:write',
  hsmTemplate: 'config:write',
  hsmTemplateGroup: 'config:write',
  holidayOperation: 'config:write',
  workSchedule: 'config:write',
  classification: 'config:write',
  bot: 'config:write',
  attribute: 'config:write',
  chatWebConfiguration: 'config:write',
  user: 'admin:write',
  userAgent: 'admin:write',
  cognition: 'admin:write',
};

export function saveAllowed(resource: ResourceKey, rules: string[] | null): boolean {
  const need = NEEDS[resource];
  return !need || rules === null || rules.includes(need);
}
