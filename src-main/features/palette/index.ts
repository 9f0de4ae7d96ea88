import type { Feature, FeatureContext } from '../context';

/** The palette's key bindings: the user's rebinds, kept in the profile's settings. */
export function createPaletteFeature(ctx: FeatureContext): Feature<'palette'> {
  return {
    handlers: {
      'palette:keys': async () => ({ bindings: ctx.settings.get('keyBindings') }),
      'palette:setKeys': async ({ bindings }) => {
        const next = { ...ctx.settings.get('keyBindings'), ...bindings };
        ctx.settings.set('keyBindings', next);
        return { bindings: next };
      },
    },
  };
}
