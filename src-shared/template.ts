/**
 * HSM templates (interface §2.9: `template`, `parameterCount`): a text with `{{1}}`-style
 * parameters, filled in order. The one filler the composer's preview and the send both use.
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
