/**
 * The one template filler (eslint: one-place/template). HSM templates (interface §2.9:
 * `template`, `parameterCount`): a text with `{{1}}`-style parameters, filled in order, the one
 * filler the composer's preview and the send both use. Named placeholders (`{port}`, `{nome}`):
 * a canned reply's, a tunnel command's, the stand-in's scripts.
 */
const PARAMETER = /\{\{(\d+)\}\}/g;

/** The `count` values a template needs, trimmed; null when one of them is missing or blank. */
export function templateValues(count: number, values: readonly (string | undefined)[]): string[] | null {
  const filled = Array.from({ length: count }, (_, i) => values[i]?.trim() ?? '');
  return filled.every(Boolean) ? filled : null;
}

/**
 * The template with each `{{n}}` replaced by the n-th value. A parameter without a value (or a
 * blank one) is written by `missing` when given (a preview's "[Parameter n]"), else left as it is.
 */
export function fillTemplate(template: string, values: readonly (string | undefined)[], missing?: (n: number) => string): string {
  return template.replace(PARAMETER, (written, n: string) => {
    const value = values[Number(n) - 1]?.trim();
    return value ? value : (missing?.(Number(n)) ?? written);
  });
}

/** How many different `{{n}}` parameters a template names (what a row without `parameterCount` needs). */
export const templateParameterCount = (template: string): number => new Set(template.match(PARAMETER) ?? []).size;

const NAMED = /\{(\w+)\}/g;

/** The text with each `{name}` that `values` gives (not null) written in; any other is left as it is. */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string | null | undefined>>): string {
  // Own keys only: `{constructor}` is no placeholder of anyone's.
  return text.replace(NAMED, (written, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? written) : written));
}
