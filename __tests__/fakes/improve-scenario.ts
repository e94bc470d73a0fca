import type { ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ImproveReport, improveReportSchema } from '../../src/schemas/improve.js';
import {
  authorPromptKind,
  type DescriptionRuleOptions,
  descriptionRule,
} from '../../src/simulated/description-script.js';
import type { RecordedRequest } from '../../src/simulated/model.js';
import { CLAUDE_BIN } from './claude-env.js';
import { type CliResult, type CliWorld, runCli, startCliWorld } from './cli.js';

/**
 * The `improve` end-to-end scenario (the CLI, the real claude, the simulated model): scripted
 * rewrites whose true rates are known — a greedy one (loads on everything), a good one (positives
 * only), a useless one (no better than the incumbent it meets) — over two train positives, two
 * train negatives and one holdout query of each class. Every rate is 0 or 1, so each session's
 * decisions are the same on every run.
 */
export const INCUMBENT = 'Helps with notes.';
export const GREEDY = 'Use for absolutely every request about anything at all.';
export const GOOD = 'Writes the session handoff note so the next session can resume.';
/** No better than the incumbent it meets (the good one, by then): the same true rates. */
export const USELESS = 'Writes the handoff note for the next session.';

/** True rates per description: [positives, negatives]. */
const RATES: Record<string, readonly [number, number]> = {
  [INCUMBENT]: [0, 0],
  [GREEDY]: [1, 1],
  [GOOD]: [1, 0],
  [USELESS]: [1, 0],
};

export const TRAIN_POS = ['alpha train wanted one', 'alpha train wanted two'];
export const TRAIN_NEG = ['alpha train unwanted one', 'alpha train unwanted two'];
export const HOLD_POS = 'omega held wanted';
export const HOLD_NEG = 'omega held unwanted';
const POSITIVES = new Set([...TRAIN_POS, HOLD_POS]);

export const SKILL_MD = `---
name: handoff
description: >
  ${INCUMBENT}
license: MIT # a comment that must survive
---

# handoff

Body text, byte for byte: "quotes", tabs\there, trailing spaces   
description: this body line is not the frontmatter
`;

/** Measured first-turn requests (`alpha …`/`omega …` queries with the stub) among these. */
export const measuredIn = (requests: readonly RecordedRequest[]) =>
  requests.filter((q) => q.turn === 1 && q.view?.stub !== undefined && /^(alpha|omega) /.test(q.view.query));

/** The rewrite prompts among these requests. */
export const rewritePromptsIn = (requests: readonly RecordedRequest[]) =>
  requests.filter(
    (q) => q.turn === 1 && q.view !== undefined && authorPromptKind(q.view.query) === 'rewrite',
  );

/** Measured runs of a class pair (0 for none). */
export const runsOf = (
  f: { positives: { runs: number }; negatives: { runs: number } } | null | undefined,
): number => (f?.positives.runs ?? 0) + (f?.negatives.runs ?? 0);

export interface ImproveOptions {
  /** Runs per query (default 3). */
  runs?: number;
  /** A padding after every query's text (the budget tests): it is the text that counts. */
  pad?: string;
  /**
   * Sends the CLI one SIGTERM as soon as this holds for the requests the model got since the
   * start (polled every 50 ms).
   */
  stopWhen?: (since: readonly RecordedRequest[]) => boolean;
  /** Added to claude's environment (another agent's endpoint and key). */
  env?: NodeJS.ProcessEnv;
}

export interface ImproveResult {
  r: CliResult;
  out: string;
  report: ImproveReport | undefined;
  markdown: string;
  /** The page's HTML, and its path ('' when none was written). */
  page: string;
  htmlPath: string;
  jsonPath: string;
  skillAfter: string;
  rewritePrompts: RecordedRequest[];
  measured: RecordedRequest[];
}

export interface ImproveScenario {
  world: CliWorld;
  /**
   * The answers to the next session's rewrite prompts, in order (a rewrite asked past the list
   * gets the useless one).
   */
  rewrites(answers: readonly string[]): void;
  /** One `improve` session over a fresh copy of the skill and the eval set in `work/<name>`. */
  improve(name: string, extra: readonly string[], options?: ImproveOptions): Promise<ImproveResult>;
}

export async function startImproveScenario(name: string): Promise<ImproveScenario> {
  let answers: readonly string[] = [];
  let asked = 0;
  const rule: DescriptionRuleOptions = {
    rate: (description, query) => {
      const rates = RATES[description];
      if (rates === undefined) return undefined;
      return [...POSITIVES].some((p) => query.startsWith(p)) ? rates[0] : rates[1];
    },
    // An invalid proposal is no attempt the prompt lists, so the answers go by the calls made.
    rewrite: () => `Here is my proposal.\n<new_description>${answers[asked++] ?? USELESS}</new_description>`,
  };
  const world = await startCliWorld({
    name,
    model: {
      seed: 13,
      recordBodies: true,
      chunkDelayMs: 1,
      script: (req, ctx) => descriptionRule(rule)(req, ctx),
    },
  });
  const { work, model, claude } = world;

  async function setUp(dirName: string, pad: string) {
    const dir = path.join(work, dirName, 'handoff');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), SKILL_MD);
    const evalFile = path.join(work, dirName, 'evals.json');
    await writeFile(
      evalFile,
      JSON.stringify([
        ...TRAIN_POS.map((query) => ({ query: `${query}${pad}`, should_trigger: true })),
        ...TRAIN_NEG.map((query) => ({ query: `${query}${pad}`, should_trigger: false })),
        { query: `${HOLD_POS}${pad}`, should_trigger: true, split: 'holdout' },
        { query: `${HOLD_NEG}${pad}`, should_trigger: false, split: 'holdout' },
      ]),
    );
    return { dir, evalFile, out: path.join(work, dirName, 'out') };
  }

  async function improve(
    dirName: string,
    extra: readonly string[],
    options: ImproveOptions = {},
  ): Promise<ImproveResult> {
    const { dir, evalFile, out } = await setUp(dirName, options.pad ?? '');
    const before = model.requests.length;
    asked = 0;
    let poll: NodeJS.Timeout | undefined;
    const stopWhen = options.stopWhen;
    const r = await runCli(
      [
        'improve',
        '--skill',
        dir,
        '--eval',
        evalFile,
        '--runs',
        String(options.runs ?? 3),
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
        ...extra,
      ],
      {
        env: { ...claude.env, ...options.env },
        onStart: (child: ChildProcess) => {
          if (!stopWhen) return;
          poll = setInterval(() => {
            if (!stopWhen(model.requests.slice(before))) return;
            clearInterval(poll);
            child.kill('SIGTERM');
          }, 50);
        },
      },
    );
    clearInterval(poll);
    const files = await readdir(out).catch(() => [] as string[]);
    const inOut = (suffix: string) => {
      const f = files.find((n) => n.endsWith(suffix));
      return f === undefined ? '' : path.join(out, f);
    };
    const jsonPath = inOut('-improve.json');
    const mdPath = inOut('-improve.md');
    const htmlPath = inOut('-improve.html');
    const report =
      jsonPath === '' ? undefined : improveReportSchema.parse(JSON.parse(await readFile(jsonPath, 'utf8')));
    const since = model.requests.slice(before);
    return {
      r,
      out,
      report,
      markdown: mdPath === '' ? '' : await readFile(mdPath, 'utf8'),
      page: htmlPath === '' ? '' : await readFile(htmlPath, 'utf8'),
      htmlPath,
      jsonPath,
      skillAfter: await readFile(path.join(dir, 'SKILL.md'), 'utf8'),
      rewritePrompts: rewritePromptsIn(since),
      measured: measuredIn(since),
    };
  }

  return {
    world,
    rewrites: (list) => {
      answers = list;
    },
    improve,
  };
}
