export const SETTINGS_TABS = ['general', 'developer'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** Which part of the settings view a workspace shows; features that live there open it through this. */
export class SettingsNav {
  tab = $state<SettingsTab>('general');
}
