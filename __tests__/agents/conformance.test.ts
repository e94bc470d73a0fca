import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Decider } from '../../src/agents/claude/decision.js';
import { parseEvent } from '../../src/agents/claude/events.js';
import {
  CodexDecider,
  type CodexSiblingIdentity,
  type CodexStubIdentity,
} from '../../src/agents/codex/decision.js';
import { parseCodexEvent } from '../../src/agents/codex/events.js';
import { parseRolloutLine } from '../../src/agents/codex/rollout.js';
import {
  GeminiDecider,
  type GeminiSiblingIdentity,
  type GeminiStubIdentity,
} from '../../src/agents/gemini/decision.js';
import { parseGeminiEvent } from '../../src/agents/gemini/events.js';
import { AGENT_IDS, type AgentId } from '../../src/agents/ids.js';
import type { LoadedEntry, SiblingIdentity, StubIdentity } from '../../src/agents/runs.js';
import type { ErrorCause, Outcome } from '../../src/outcome.js';

/**
 * The decision half of the conformance suite, on recordings (no binary): every registered agent's
 * decision reader is fed its own recorded streams of the same cases, and must come to the outcome
 * each case is labelled with. The recordings, and how they were made, are under
 * __tests__/fixtures/streams/ (its README). A new agent joins by being registered: the compiler
 * asks for its reader below, and the first test lists the recordings it still lacks.
 */

/** What a recording holds beside its lines: the process's exit and the identities its reader is made with. */
interface RunFile {
  agent: AgentId;
  case: string;
  exit: { spawnFailed?: boolean; exitCode?: number; signal?: string };
  stub: unknown;
  siblings: unknown[];
  projectDir?: string;
}

interface Recording {
  run: RunFile;
  /** The lines of one of its files (empty when the file is absent). */
  lines(file: string): string[];
}

interface Decided {
  outcome: Outcome;
  loaded?: LoadedEntry | undefined;
}

/** How a reader feeds lines to a decider until it decides, then tells the process's exit. */
function feedAll<E>(
  lines: readonly string[],
  parse: (line: string) => E,
  decider: { feed(event: E): Outcome | undefined },
): Outcome | undefined {
  for (const line of lines) {
    const outcome = decider.feed(parse(line));
    if (outcome) return outcome;
  }
  return undefined;
}

/** Each agent's decision reader, as its run drives it: fed what the run reads, then told the exit. */
const READERS: Record<AgentId, (recording: Recording) => Decided> = {
  claude: ({ run, lines }) => {
    const decider = new Decider(run.stub as StubIdentity, run.siblings as SiblingIdentity[]);
    const outcome = feedAll(lines('stdout.jsonl'), parseEvent, decider) ?? decider.finish(run.exit);
    return { outcome, loaded: decider.loaded };
  },
  codex: ({ run, lines }) => {
    // The rollout decides; stdout only says how a run that never decided ended.
    const decider = new CodexDecider(run.stub as CodexStubIdentity, run.siblings as CodexSiblingIdentity[]);
    let outcome = feedAll(lines('rollout.jsonl'), parseRolloutLine, decider);
    if (outcome === undefined) {
      for (const line of lines('stdout.jsonl')) decider.noteStdout(parseCodexEvent(line));
      outcome = decider.finish(run.exit);
    }
    return { outcome, loaded: decider.loaded };
  },
  gemini: ({ run, lines }) => {
    const decider = new GeminiDecider(
      run.stub as GeminiStubIdentity,
      run.projectDir ?? '',
      run.siblings as GeminiSiblingIdentity[],
    );
    const outcome = feedAll(lines('stdout.jsonl'), parseGeminiEvent, decider) ?? decider.finish(run.exit);
    return { outcome, loaded: decider.loaded };
  },
};

/** Causes that say the run never decided, as opposed to an API's refusal. */
const UNDECIDED: readonly ErrorCause[] = ['no-decision', 'crash'];

/**
 * The cases every agent is recorded on (scripts/record-streams.js), each with what it must decide:
 * the model's first answer loads the stub (hit), answers in text (a miss), loads the sibling (a
 * miss naming it), runs another tool and loads the stub only in its next turn (a miss: the first
 * response decides), fails with a 500 (an API error, never a miss), or starts its answer and stalls
 * until the process is killed (an error that says the run never decided).
 */
const CASES: Record<string, (decided: Decided) => void> = {
  hit: (d) => expect(d).toEqual({ outcome: { kind: 'triggered' }, loaded: { kind: 'stub' } }),
  'miss-text': (d) => expect(d).toEqual({ outcome: { kind: 'not-triggered' }, loaded: { kind: 'none' } }),
  sibling: (d) =>
    expect(d).toEqual({ outcome: { kind: 'not-triggered' }, loaded: { kind: 'sibling', name: 'pdf' } }),
  late: (d) => expect(d).toEqual({ outcome: { kind: 'not-triggered' }, loaded: { kind: 'none' } }),
  'api-error': ({ outcome }) => {
    expect(outcome.kind).toBe('error');
    if (outcome.kind === 'error') expect(UNDECIDED).not.toContain(outcome.cause);
  },
  undecided: ({ outcome }) => {
    expect(outcome.kind).toBe('error');
    if (outcome.kind === 'error') expect(UNDECIDED).toContain(outcome.cause);
  },
};

const folderOf = (id: AgentId, name: string) =>
  new URL(`../fixtures/streams/${id}/${name}/`, import.meta.url);

function recording(id: AgentId, name: string): Recording {
  const folder = folderOf(id, name);
  const run = JSON.parse(readFileSync(new URL('run.json', folder), 'utf8')) as RunFile;
  return {
    run,
    lines: (file) => {
      const url = new URL(file, folder);
      return existsSync(url)
        ? readFileSync(url, 'utf8')
            .split('\n')
            .filter((l) => l !== '')
        : [];
    },
  };
}

const recorded = AGENT_IDS.flatMap((id) =>
  Object.keys(CASES)
    .filter((name) => existsSync(new URL('run.json', folderOf(id, name))))
    .map((name) => [id, name] as const),
);

it('every registered agent has a recording of every case', () => {
  const missing = AGENT_IDS.flatMap((id) =>
    Object.keys(CASES)
      .filter((name) => !recorded.some(([a, n]) => a === id && n === name))
      .map((name) => `${id}/${name}`),
  );
  expect(missing).toEqual([]);
});

describe.each(recorded)('the %s decision on its recorded %s', (id, name) => {
  const subject = recording(id, name);

  it('is a recording of this agent and case, with the lines its reader reads', () => {
    expect([subject.run.agent, subject.run.case]).toEqual([id, name]);
    expect(subject.lines('stdout.jsonl').length).toBeGreaterThan(0);
  });

  it('comes to the outcome the case is labelled with', () => {
    CASES[name]?.(READERS[id](subject));
  });
});
