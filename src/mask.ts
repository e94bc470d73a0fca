/**
 * The one masking function for everything that leaves the process: the CLI's stdout and stderr,
 * gate reasons, report files. A gateway or proxy may echo the key it was sent in an error body,
 * and claude repeats that body in its stream, so any text that came from outside may hold it.
 * Masked: the values of the credential variables the process was given (registered once, at
 * start), any `sk-ant-…` token, registered or not, and the credentials a URL may carry (its
 * `user:password@` and the values of secret-looking query parameters: a gateway's `?api-key=`), so
 * a URL the user gave (OPENAI_BASE_URL, ANTHROPIC_BASE_URL) is printed without them.
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

/** A URL as text may hold one: a scheme, `://`, then everything up to a space, quote or bracket. */
const URL_IN_TEXT = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`()[\]{}]+/g;

/** `user:password@` (or `token@`) right after the scheme. */
const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@]*@/;

/**
 * A query parameter whose value is a credential, by its name: `key`, `api-key`, `apikey`, `token`,
 * `access_token`, `secret`, `password`, `sig`, `signature`, `auth`, `code`, `credential`… in any
 * case, with `-` or `_`.
 */
const SECRET_PARAMETER =
  /^(?:[a-z0-9]*[-_.])?(?:key|api[-_]?key|apikey|token|secret|password|passwd|pwd|pass|sig|signature|auth|authorization|code|credentials?|session)(?:[-_.][a-z0-9]*)?$/i;

/** `url` with its userinfo and its secret-looking query values replaced by `***`. */
function maskUrl(url: string): string {
  const withoutUser = url.replace(USERINFO, `$1${MASK}@`);
  const query = withoutUser.indexOf('?');
  if (query < 0) return withoutUser;
  const hash = withoutUser.indexOf('#', query);
  const end = hash < 0 ? withoutUser.length : hash;
  const pairs = withoutUser
    .slice(query + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name);
      } catch {
        // A name that is not valid percent-encoding is judged as written.
      }
      return SECRET_PARAMETER.test(name) ? `${pair.slice(0, equals)}=${MASK}` : pair;
    });
  return `${withoutUser.slice(0, query + 1)}${pairs.join('&')}${withoutUser.slice(end)}`;
}

/** `text` with the credentials of every URL in it masked (see maskUrl). */
export function maskUrlCredentials(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, maskUrl) : text;
}

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

/**
 * `text` with every registered secret, every `sk-ant-` token and the credentials of every URL
 * replaced by `***`.
 */
export function maskSecrets(text: string): string {
  let masked = text;
  // Longest first, so a secret that contains another is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (masked.includes(secret)) masked = masked.split(secret).join(MASK);
  }
  return maskUrlCredentials(masked.replace(ANTHROPIC_TOKEN, MASK));
}
