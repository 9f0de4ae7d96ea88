import type { ServiceTimeStatus } from '../../../src-shared/bridge/live';
import { AppError } from '../../../src-shared/errors';
import { fixedZone, parseZone } from '../../../src-shared/service-zone';
import type { FeatureContext } from '../context';

/**
 * The service's time zone as the settings show it (README: "Date-times without an offset"): the
 * one the user set for this workspace, the one learned from the service, and the one in use.
 */
export function serviceTimeStatus(ctx: FeatureContext): ServiceTimeStatus {
  const setting = ctx.settings.get('serviceZone');
  const time = ctx.hasWorkspace() ? ctx.client().time : null;
  const learned = time?.learned ?? null;
  const offset = learned?.offsetMinutes ?? null;
  return {
    setting,
    learned: offset === null ? null : fixedZone(offset).name,
    wallTime: learned?.wallTime ?? false,
    inUse: time?.zone?.name ?? (setting ? parseZone(setting)?.name : undefined) ?? 'UTC',
  };
}

/** Sets the zone (null or blank: learn it from the service); a zone no one can read is refused. */
export function setServiceZone(ctx: FeatureContext, zone: string | null): ServiceTimeStatus {
  const t = zone?.trim() ?? '';
  if (t && !parseZone(t))
    throw new AppError({
      kind: 'Invalid',
      message: `"${t}" is not a time zone. Write UTC, an offset such as -03:00, or a zone name such as America/Sao_Paulo.`,
      field: 'zone',
    });
  const before = serviceTimeStatus(ctx).inUse;
  ctx.settings.set('serviceZone', t || null);
  const after = serviceTimeStatus(ctx);
  if (after.inUse !== before) ctx.serviceZoneChanged();
  return after;
}
