/**
 * The rules of the Codex gates (docs/codex.md "Gates"), pure: each reads what an adapter found and
 * says ok, warn or fail with the fix. src/agents/codex/gates.ts runs them in the claude gates' order.
 */
import { maskSecrets } from '../../mask.js';
import type { Outcome } from '../../outcome.js';
import { type GateResult, gateResult } from '../gates.js';

/** A line of Codex's skill listing, as the rules read it (the codex-probe adapter's `CodexListedSkill`). */
interface ListedSkill {
  name: string;
  /** The SKILL.md the line points at. */
  file: string;
}

/** A skill in a folder Codex scans (the codex-skill-folders adapter's `CodexFolderSkill`). */
interface FolderSkill {
  name: string;
  /** The folder, as the user would spell it (`~/.agents/skills`). */
  place: string;
}

const INSTALL_FIX =
  'install the Codex CLI (npm install -g @openai/codex) or point skilltrigger at it with --codex <path> (or SKILLTRIGGER_CODEX)';

/** The cli gate: `codex --version` (run in a throwaway CODEX_HOME) printed a version. */
export function judgeCodexCli(bin: string, version: string | undefined): GateResult {
  if (version === undefined)
    return gateResult(
      'cli',
      'fail',
      `"${bin} --version" could not be run or printed no version`,
      INSTALL_FIX,
    );
  return gateResult('cli', 'ok', `codex ${version}`);
}

export const CODEX_LOGIN_FIX = [
  'export CODEX_API_KEY=<an OpenAI API key> (OPENAI_API_KEY is read too); for a gateway or Azure, also',
  'export OPENAI_BASE_URL=<its Responses API base, ending in /v1>',
].join('\n');

/**
 * The auth gate. Every run has a throwaway CODEX_HOME, so a login stored by `codex login` (an API
 * key or a ChatGPT sign-in, in the user's `~/.codex/auth.json`) never reaches it: the key must be
 * in the environment. The round trip proves it with a real request.
 */
export function judgeCodexAuth(input: {
  keySource?: string;
  baseUrl?: string;
  storedLogin: boolean;
}): GateResult {
  if (input.keySource !== undefined)
    return gateResult('auth', 'ok', `key from ${input.keySource}, for ${maskSecrets(input.baseUrl ?? '')}`);
  if (input.storedLogin)
    return gateResult(
      'auth',
      'fail',
      'no CODEX_API_KEY or OPENAI_API_KEY; the login `codex login` stored in ~/.codex is not used: each run has a throwaway CODEX_HOME, so neither its key nor a ChatGPT sign-in reaches the runs',
      CODEX_LOGIN_FIX,
    );
  return gateResult('auth', 'fail', 'no CODEX_API_KEY or OPENAI_API_KEY in the environment', CODEX_LOGIN_FIX);
}

/** The round-trip gate: one real `codex exec` against the provider ended with an answer. */
export function judgeCodexRoundTrip(
  outcome: Outcome,
  model: string | undefined,
  timeoutMs: number,
): GateResult {
  const who = `the provider${model ? ` (model ${model})` : ''}`;
  switch (outcome.kind) {
    case 'triggered':
    case 'not-triggered':
      return gateResult('round-trip', 'ok', `${who} answered through codex exec`);
    case 'timeout':
      return gateResult(
        'round-trip',
        'fail',
        `codex exec got no answer from ${who} in ${Math.round(timeoutMs / 1000)} s`,
        'check that OPENAI_BASE_URL (if set) leads to a Responses API that answers, and the network',
      );
    case 'error': {
      const status = outcome.status === undefined ? '' : ` (HTTP ${outcome.status})`;
      const fix =
        outcome.cause === 'auth'
          ? `the key was refused: ${CODEX_LOGIN_FIX}`
          : outcome.cause === 'cli-missing'
            ? INSTALL_FIX
            : outcome.cause === 'model'
              ? 'check that --model names a model the provider serves'
              : 'check OPENAI_BASE_URL (if set), the network, and the provider\'s status; run `codex exec "Reply with exactly: pong"` with the same key to see what goes wrong';
      return gateResult(
        'round-trip',
        'fail',
        `codex exec failed against ${who}: ${outcome.cause}${status}`,
        fix,
      );
    }
  }
}

const ALLOW_HINT = 'or measure with it in place: --allow-conflict (the report records it)';

/**
 * The conflict gate: a skill Codex lists under the skill's own name competes with the stub (a read
 * of it counts as another skill). Found in the folders Codex scans (`folders`) or in what the roster
 * probe saw Codex list (`listed`, the probe's own project skills left out).
 */
export function judgeCodexConflict(input: {
  name?: string;
  folders: readonly FolderSkill[];
  listed: readonly ListedSkill[];
  allowConflict: boolean;
}): GateResult {
  const { name } = input;
  if (name === undefined) return gateResult('conflict', 'skip', 'no --skill given, so no name to check');
  const places = new Set(input.folders.filter((s) => s.name === name).map((s) => s.place));
  const listedOnly = input.listed.some((s) => s.name === name) && places.size === 0;
  if (places.size === 0 && !listedOnly)
    return gateResult('conflict', 'ok', `nothing Codex lists besides the stub answers to "${name}"`);
  const where = [...places].join(', ');
  const reason = listedOnly
    ? `Codex already lists a skill named "${name}" (a system skill or one from a folder it scans): the model would choose between it and the stub`
    : `Codex also lists the skill "${name}" from ${where}: the model would choose between it and the stub`;
  const fix = listedOnly
    ? 'rename the skill, or find where Codex reads it from (~/.agents/skills, /etc/codex/skills, the system skills) and move it away while measuring'
    : `move ${where} out of the way while measuring`;
  return input.allowConflict
    ? gateResult(
        'conflict',
        'warn',
        `${reason}; measuring anyway (--allow-conflict, recorded in the report)`,
        fix,
      )
    : gateResult('conflict', 'fail', reason, `${fix}\n${ALLOW_HINT}`);
}

/** What the roster probe saw a measured run list besides the stub, split by where it comes from. */
export interface CodexRoster {
  system: string[];
  other: string[];
}

/** Splits the probe's listing: the system skills Codex installs in CODEX_HOME, and the rest (the user's). */
export function codexRoster(listed: readonly ListedSkill[], projectSkills: string): CodexRoster {
  const roster: CodexRoster = { system: [], other: [] };
  for (const skill of listed) {
    if (skill.file.startsWith(`${projectSkills}/`)) continue;
    (/\/skills\/\.system\//.test(skill.file) ? roster.system : roster.other).push(skill.name);
  }
  return roster;
}

/** The roster gate: counts only (names go into the report hashed); never a failure by itself. */
export function judgeCodexRoster(roster: CodexRoster | undefined, why: string, version?: string): GateResult {
  if (roster === undefined) return gateResult('roster', 'skip', why);
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return gateResult(
    'roster',
    'ok',
    `${n(roster.system.length, 'system skill')} and ${n(roster.other.length, 'other skill')} beside the stub; codex ${version ?? 'unknown'}`,
  );
}
