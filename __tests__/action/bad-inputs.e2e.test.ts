import { execFileSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_INPUT_CASES } from '../faults/bad-input-cases.js';
import { ACTION_FAULT_CASES } from '../faults/cases.js';
import { shellScript } from '../faults/support.js';
import { GitRepo, pullRequestPayload, runAction, skillFile } from './harness.js';
import { runActionInProcess } from './in-process.js';

/**
 * The Action's bad inputs (ACTION_INPUT_CASES) through the bundled Action as the runner runs it:
 * each stops with exit 1, its failure naming the input and what it accepts, before claude is ever
 * started or a report written. Also keeps the two Action tables of docs/faults.md equal to their
 * case lists (as __tests__/faults/faults-doc.test.ts does for the CLI's), and every Action fault
 * case named by a test here. Regenerate: UPDATE_FAULTS_DOC=1 npx vitest run <this file>.
 *
 * The first case, and the first with files of its own, run the bundle as the runner runs it
 * (`runAction`); the others call the Action's entry in this process (in-process.ts), the same
 * flow from the same inputs without a node start each.
 */
const SPAWNED = new Set(
  [ACTION_INPUT_CASES[0], ACTION_INPUT_CASES.find((c) => c.files !== undefined)].map((c) => c?.id),
);

const DOC = new URL('../../docs/faults.md', import.meta.url);
const HERE = new URL('./', import.meta.url);

let work: string;
let repo: GitRepo;
let marker: string;
let claude: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-action-bad-input-'));
  marker = path.join(work, 'claude-was-started');
  claude = await shellScript(work, 'claude-recorder', `echo "$@" >> '${marker}'\nexit 1`);
  repo = await GitRepo.create(path.join(work, 'repo'));
  await repo.commit('Initial', { 'README.md': '# skills\n' });
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('bad Action inputs stop the step before anything runs, naming the input', () => {
  it('every case is distinct', () => {
    expect(new Set(ACTION_INPUT_CASES.map((c) => c.id)).size).toBe(ACTION_INPUT_CASES.length);
    expect(new Set(ACTION_INPUT_CASES.map((c) => c.error)).size).toBe(ACTION_INPUT_CASES.length);
  });

  for (const c of ACTION_INPUT_CASES) {
    it(`${c.id}: ${c.input} = ${JSON.stringify(c.value)} (${c.what}) → exit ${c.exit}`, async () => {
      const head = repo.git('rev-parse', 'HEAD');
      for (const [file, text] of Object.entries(c.files ?? {})) {
        await mkdir(path.dirname(path.join(repo.dir, file)), { recursive: true });
        await writeFile(path.join(repo.dir, file), text);
      }
      const result = await (SPAWNED.has(c.id) ? runAction : runActionInProcess)({
        cwd: repo.dir,
        eventName: 'pull_request',
        payload: pullRequestPayload({ number: 1, baseSha: head, headSha: head, headRef: 'x' }),
        inputs: {
          'claude-path': claude,
          'anthropic-api-key': 'sk-ant-unused',
          ...c.with,
          [c.input]: c.value,
        },
        env: {
          PATH: process.env.PATH ?? '',
          HOME: work,
          TMPDIR: work,
          RUNNER_OS: 'Linux',
          GITHUB_REPOSITORY: 'octo-org/skills',
        },
      });
      expect(result.code, result.stdout).toBe(c.exit);
      // It names the input, then what it accepts (`expected …, got …`) or what is wrong and the fix.
      expect(result.failure).toMatch(new RegExp(`^input ${c.input}: (expected .+, got |.+\\. Fix: )`));
      expect(result.failure).toContain(c.error);
      if (c.fix !== undefined) expect(result.failure).toContain(c.fix);
      expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
      await expect(access(marker)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(access(path.join(repo.dir, 'skilltrigger-results'))).rejects.toMatchObject({
        code: 'ENOENT',
      });
    });
  }

  it('an empty model is the same as none (the CLI default), not an error', async () => {
    const base = repo.git('rev-parse', 'HEAD');
    const head = await repo.commit('A skill without an eval set', {
      'skills/x/SKILL.md': skillFile('x', 'Does x. Use when asked for x.'),
    });
    for (const value of ['', '   ', '\n']) {
      // The bundle for the first value, the entry in this process for the others.
      const result = await (value === '' ? runAction : runActionInProcess)({
        cwd: repo.dir,
        eventName: 'pull_request',
        payload: pullRequestPayload({ number: 2, baseSha: base, headSha: head, headRef: 'x' }),
        inputs: { 'claude-path': claude, model: value },
        env: {
          PATH: process.env.PATH ?? '',
          HOME: work,
          TMPDIR: work,
          RUNNER_OS: 'Linux',
          GITHUB_REPOSITORY: 'octo-org/skills',
        },
      });
      // It gets past the settings to the skill's inputs (no eval set: an input error of the skill).
      expect(result.failure ?? '', result.stdout).not.toContain('input model');
      expect(result.failure).toMatch(/^input error: 1 problem in the skills' inputs/);
    }
  });
});

// docs/faults.md: the Action's tables, generated from the case lists.

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A code span that survives backticks and line breaks inside the text. */
function code(text: string): string {
  const flat = text.replace(/\n/g, '\\n');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${cell(flat)}${pad}${fence}`;
}

function actionFaultTable(): string {
  return [
    '| Fault | How the suite injects it | Outcome | Case |',
    '|---|---|---|---|',
    ...ACTION_FAULT_CASES.map(
      (c) => `| ${cell(c.fault)} | ${cell(c.injected)} | ${cell(c.outcome)} | \`${c.id}\` |`,
    ),
  ].join('\n');
}

function actionInputTable(): string {
  return [
    '| Input | Value | Case | Error (fragment of the failure) | Exit | Case id |',
    '|---|---|---|---|---|---|',
    ...ACTION_INPUT_CASES.map(
      (c) =>
        `| \`${c.input}\` | ${code(c.value)} | ${cell(c.what)} | ${code(c.error)} | ${c.exit} | \`${c.id}\` |`,
    ),
  ].join('\n');
}

const markers = (name: string) =>
  new RegExp(`<!-- ${name}:start -->\\n?([\\s\\S]*?)\\n?<!-- ${name}:end -->`);

/** A table as its cells, ignoring the padding Biome adds and the width of the `---` row. */
function cells(table: string | undefined): string[][] {
  return (table ?? '').split('\n').map((row) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .map((c) => (/^:?-+:?$/.test(c) ? '---' : c)),
  );
}

describe('docs/faults.md, the Action’s tables', () => {
  it('every Action fault case is covered by a test that names it', async () => {
    const source = await readFile(new URL('action.e2e.test.ts', HERE), 'utf8');
    expect(ACTION_FAULT_CASES.filter((c) => !source.includes(`'${c.id}'`)).map((c) => c.id)).toEqual([]);
    expect(new Set(ACTION_FAULT_CASES.map((c) => c.id)).size).toBe(ACTION_FAULT_CASES.length);
  });

  it('holds the Action fault and Action input tables exactly as the case lists give them', async () => {
    let doc = await readFile(DOC, 'utf8');
    if (process.env.UPDATE_FAULTS_DOC === '1') {
      for (const [name, body] of [
        ['action-fault-table', actionFaultTable()],
        ['action-input-table', actionInputTable()],
      ] as const) {
        doc = doc.replace(markers(name), () => `<!-- ${name}:start -->\n${body}\n<!-- ${name}:end -->`);
      }
      await writeFile(DOC, doc);
      const biome = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));
      execFileSync(biome, ['format', '--write', fileURLToPath(DOC)], { stdio: 'ignore' });
      doc = await readFile(DOC, 'utf8');
    }
    expect(cells(markers('action-fault-table').exec(doc)?.[1]), 'run with UPDATE_FAULTS_DOC=1').toEqual(
      cells(actionFaultTable()),
    );
    expect(cells(markers('action-input-table').exec(doc)?.[1]), 'run with UPDATE_FAULTS_DOC=1').toEqual(
      cells(actionInputTable()),
    );
  });
});
