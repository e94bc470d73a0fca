/**
 * The one masking function for everything that leaves the process: the CLI's stdout and stderr,
 * gate reasons, report files. A gateway or proxy may echo the key it was sent in an error body,
 * and claude repeats that body in its stream, so any text that came from outside may hold it.
 * Masked: the values of the credential variables the process was given (registered once, at
 * start) and any `sk-ant-…` token, registered or not.
 */

/** What a masked secret is replaced with (JSON-safe, Markdown-safe). */
export const MASK = '***';

/**
 * Below this length a value is not masked by its text alone: it would hide ordinary words
 * (a placeholder key `x` or `test`) and no real credential is that short. `sk-ant-` tokens are
 * masked whatever their length.
 */
const MIN_SECRET_LENGTH = 6;

/** `sk-ant-` then the key's alphabet (letters, digits, `-`, `_`). */
const ANTHROPIC_TOKEN = /sk-ant-[A-Za-z0-9_-]*/g;

const secrets = new Set<string>();

/**
 * Remember the values `env` holds for the variables `names` (every agent's secret variables, from
 * the registry: src/agents/registry.ts) so that `maskSecrets` hides them.
 */
export function registerSecrets(env: NodeJS.ProcessEnv, names: readonly string[]): void {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
  }
}

/** `text` with every registered secret and every `sk-ant-` token replaced by `***`. */
export function maskSecrets(text: string): string {
  let masked = text;
  // Longest first, so a secret that contains another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (masked.includes(secret)) masked = masked.split(secret).join(MASK);
  }
  return masked.replace(ANTHROPIC_TOKEN, MASK);
}
