/**
 * Parsers of settings' values from the environment map lib/kit/config.ts hands over (it stays the
 * only reader of the environment), shared by the configuration and the features' settings slices
 * (lib/features/<name>/config.ts).
 */

/**
 * A whole number setting: `fallback` when unset or blank.
 * @throws Error naming the setting when the value is not a whole number from `min` to `max`.
 */
export function intSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  }
  return n;
}
