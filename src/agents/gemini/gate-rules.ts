/**
 * The rules of the Gemini gates (docs/gemini.md "Gates"), pure: each reads what an adapter found and
 * says ok, warn or fail with the fix. src/agents/gemini/gates.ts runs them in the claude gates' order.
 */
import { maskSecrets } from '../../mask.js';
import type { Outcome } from '../../outcome.js';
import { type GateResult, gateResult } from '../gates.js';

/** A skill Gemini lists or a folder holds, as the rules read it (the adapters' shapes). */
interface NamedSkill {
  name: string;
}
interface FolderSkill extends NamedSkill {
  /** The folder, as the user would spell it (`~/.gemini/skills/<dir>`). */
  place: string;
}

const INSTALL_FIX =
  'install Gemini CLI (npm install -g @google/gemini-cli) or point skilltrigger at it with --gemini <path> (or SKILLTRIGGER_GEMINI)';

/** The version gate: `gemini --version` (run with a throwaway home) printed a version. */
export function judgeGeminiCli(bin: string, version: string | undefined): GateResult {
  if (version === undefined)
    return gateResult(
      'cli',
      'fail',
      `"${bin} --version" could not be run or printed no version`,
      INSTALL_FIX,
    );
  return gateResult('cli', 'ok', `gemini ${version}`);
}

export const GEMINI_KEY_FIX = [
  'export GEMINI_API_KEY=<a Gemini API key from https://aistudio.google.com/apikey> (GOOGLE_API_KEY is read too); for a gateway, also',
  'export GOOGLE_GEMINI_BASE_URL=<its Gemini API base>',
].join('\n');

/** A URL as a gate may print it: credentials in its user part, its query and the registered keys masked. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username) parsed.username = '***';
    if (parsed.password) parsed.password = '***';
    if (parsed.search) parsed.search = '?***';
    return maskSecrets(parsed.toString());
  } catch {
    return maskSecrets(url);
  }
}

/**
 * The auth gate. Every run has a throwaway GEMINI_CLI_HOME, so a Google sign-in stored in the
 * user's `~/.gemini` never reaches it, and GOOGLE_GEMINI_BASE_URL applies to API-key logins only:
 * the key must be in the environment. The round trip proves it with a real request.
 */
export function judgeGeminiAuth(input: {
  keySource?: string;
  baseUrl?: string;
  googleLogin: boolean;
}): GateResult {
  const where = input.baseUrl ? shownUrl(input.baseUrl) : "Google's Gemini API";
  if (input.keySource !== undefined)
    return gateResult('auth', 'ok', `key from ${input.keySource}, for ${where}`);
  if (input.googleLogin)
    return gateResult(
      'auth',
      'fail',
      'no GEMINI_API_KEY or GOOGLE_API_KEY; the Google sign-in stored in ~/.gemini is not used: each run has a throwaway GEMINI_CLI_HOME, and a measured run needs an API key',
      GEMINI_KEY_FIX,
    );
  return gateResult('auth', 'fail', 'no GEMINI_API_KEY or GOOGLE_API_KEY in the environment', GEMINI_KEY_FIX);
}

/** The round-trip gate: one real `gemini` run against the endpoint ended with an answer. */
export function judgeGeminiRoundTrip(
  outcome: Outcome,
  model: string | undefined,
  timeoutMs: number,
): GateResult {
  const who = `the Gemini API${model ? ` (model ${model})` : ''}`;
  switch (outcome.kind) {
    case 'triggered':
    case 'not-triggered':
      return gateResult('round-trip', 'ok', `${who} answered through gemini`);
    case 'timeout':
      return gateResult(
        'round-trip',
        'fail',
        `gemini got no answer from ${who} in ${Math.round(timeoutMs / 1000)} s`,
        'check that GOOGLE_GEMINI_BASE_URL (if set) leads to a Gemini API that answers, and the network',
      );
    case 'error': {
      const status = outcome.status === undefined ? '' : ` (HTTP ${outcome.status})`;
      const fix =
        outcome.cause === 'auth'
          ? `the key was refused: ${GEMINI_KEY_FIX}`
          : outcome.cause === 'cli-missing'
            ? INSTALL_FIX
            : outcome.cause === 'model'
              ? 'check that --model names a model the Gemini API serves'
              : 'check GOOGLE_GEMINI_BASE_URL (if set), the network, and the API\'s status; run `gemini -p "Reply with exactly: pong"` with the same key to see what goes wrong';
      return gateResult('round-trip', 'fail', `gemini failed against ${who}: ${outcome.cause}${status}`, fix);
    }
  }
}

const ALLOW_HINT = 'or measure with it in place: --allow-conflict (the report records it)';

/**
 * The conflict gate. A skill a measured run lists under the skill's own name (a built-in one, or
 * one from the machine's settings) competes with the stub: fail. A same-named skill in the user's
 * own folders or extensions is not read by a measured run (its home is a throwaway one), so it does
 * not change the numbers; it does compete in the user's own sessions: warn.
 */
export function judgeGeminiConflict(input: {
  name?: string;
  listed: readonly NamedSkill[];
  folders: readonly FolderSkill[];
  allowConflict: boolean;
}): GateResult {
  const { name } = input;
  if (name === undefined) return gateResult('conflict', 'skip', 'no --skill given, so no name to check');
  if (input.listed.some((s) => s.name === name)) {
    const reason = `Gemini already lists a skill named "${name}" in every run (a built-in skill or one the machine's settings add): the model would choose between it and the stub`;
    const fix = 'rename the skill';
    return input.allowConflict
      ? gateResult(
          'conflict',
          'warn',
          `${reason}; measuring anyway (--allow-conflict, recorded in the report)`,
          fix,
        )
      : gateResult('conflict', 'fail', reason, `${fix}\n${ALLOW_HINT}`);
  }
  const places = [...new Set(input.folders.filter((s) => s.name === name).map((s) => s.place))];
  if (places.length > 0)
    return gateResult(
      'conflict',
      'warn',
      `your own Gemini also lists "${name}" from ${places.join(', ')}; the measured runs leave your folders out, so the numbers show the stub alone`,
      `to measure what your sessions see, move ${places.join(', ')} out of the way there, or rename one of them`,
    );
  return gateResult('conflict', 'ok', `nothing Gemini lists besides the stub answers to "${name}"`);
}

/** What the listing probe saw a measured run list besides the stub: Gemini's built-in skills and the rest. */
export interface GeminiRoster {
  builtIn: string[];
  other: string[];
}

/** Splits the probe's listing: the skills shipped inside the CLI's package (`…/bundle/builtin/…`), and the rest. */
export function geminiRoster(
  listed: ReadonlyArray<{ name: string; file: string }>,
  projectSkills: string,
): GeminiRoster {
  const roster: GeminiRoster = { builtIn: [], other: [] };
  for (const skill of listed) {
    if (skill.file.startsWith(`${projectSkills}/`)) continue;
    (/\/builtin\/[^/]+\/SKILL\.md$/.test(skill.file) ? roster.builtIn : roster.other).push(skill.name);
  }
  return roster;
}

/** The roster gate: counts only (names go into the report hashed); never a failure by itself. */
export function judgeGeminiRoster(
  roster: GeminiRoster | undefined,
  why: string,
  version?: string,
): GateResult {
  if (roster === undefined) return gateResult('roster', 'skip', why);
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return gateResult(
    'roster',
    'ok',
    `${n(roster.builtIn.length, 'built-in skill')} and ${n(roster.other.length, 'other skill')} beside the stub; gemini ${version ?? 'unknown'}`,
  );
}
