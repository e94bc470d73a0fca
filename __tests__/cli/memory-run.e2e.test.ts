import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import type { RecordedRequest } from '../../src/simulated/model.js';
import { type CliWorld, CODEX_BIN, runCli, startCliWorld } from '../fakes/cli.js';
import { changes, tree } from '../faults/home-tree.js';

/**
 * `run --memory`, through the real `claude`, `codex` and `gemini` against the simulated model's
 * capture (docs/cli.md "Memory files"): two files, joined in order, reach every measured run's
 * request where each agent puts its project memory file (CLAUDE.md, AGENTS.md, GEMINI.md); the
 * report records each file by hash and size, never its text or path; HOME and TMPDIR are left as
 * they were found. One run of all three agents, one run per query, two queries.
 */
const FIRST = '# Routing\n\nWhen the user asks for a handoff note, use the handoff skill. ROUTE-MARK-1\n';
const SECOND = 'Keep answers short. ROUTE-MARK-2';
const JOINED = `${FIRST}\n${SECOND}\n`;

let world: CliWorld;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'memory-e2e',
    model: {
      recordBodies: true,
      script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }),
    },
  });
});

afterAll(async () => {
  await world?.close();
});

const env = () => world.agentEnv('codex', 'gemini');

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The texts of a request body, wherever the agent puts them. */
function texts(body: unknown): string[] {
  if (typeof body === 'string') return [body];
  if (Array.isArray(body)) return body.flatMap(texts);
  if (body !== null && typeof body === 'object') return Object.values(body).flatMap(texts);
  return [];
}

/** Each agent's requests of the measured queries, by the API it posts to. */
function measuredRequests(requests: readonly RecordedRequest[]) {
  const own = requests.filter((r) => /^(hit|miss):/.test(r.view?.query ?? ''));
  return {
    claude: own.filter((r) => r.path.endsWith('/messages')),
    codex: own.filter((r) => r.path.endsWith('/responses')),
    gemini: own.filter((r) => r.path.includes(':streamGenerateContent')),
  };
}

describe('run --memory', () => {
  it("puts the files, joined, where each agent's request carries its project memory; the report keeps hashes", async () => {
    const skill = path.dirname(
      await world.write(
        'handoff/SKILL.md',
        '---\nname: handoff\ndescription: Write HANDOFF.md for the next session\n---\n\nBody.\n',
      ),
    );
    const evalFile = await world.write(
      'evals.json',
      JSON.stringify([
        { query: 'hit: write the handoff note now', should_trigger: true },
        { query: 'miss: rename the variable', should_trigger: false },
      ]),
    );
    const first = await world.write('memory/CLAUDE.md', FIRST);
    const second = await world.write('memory/more.md', SECOND);
    const { tmp, env: tmpEnv } = await world.tmpEnv('memory');
    const home = world.claude.home;
    // A HOME where claude has started before (its first start makes its own files; docs/home.md),
    // with another project's history, as a user has it.
    await mkdir(path.join(home, '.claude', 'projects', '-home-me-app'), { recursive: true });
    await writeFile(path.join(home, '.claude', 'projects', '-home-me-app', 's.jsonl'), '{}\n');
    const warm = await runCli(['preflight', '--out', path.join(world.work, 'warm')], { env: env() });
    expect(warm.code, warm.stderr).toBe(0);
    const before = { home: await tree(home), tmp: await tree(tmp) };
    const from = world.model.requests.length;
    const out = path.join(world.work, 'out');
    const r = await runCli(
      [
        ...['run', '--agent', 'claude,codex,gemini', '--codex', CODEX_BIN, '--runs', '1'],
        ...['--skill', skill, '--eval', evalFile, '--memory', first, '--memory', second, '--out', out],
      ],
      { env: { ...env(), TMPDIR: tmpEnv.TMPDIR } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "memory: 2 files joined in order (118 bytes) in every run's project, as CLAUDE.md (Claude Code), AGENTS.md (Codex), GEMINI.md (Gemini CLI)",
    );

    const requests = measuredRequests(world.model.requests.slice(from));
    for (const agent of ['claude', 'codex', 'gemini'] as const)
      expect(requests[agent].length, agent).toBeGreaterThanOrEqual(2);
    // Claude Code: a system reminder in the first user message, naming the project's CLAUDE.md.
    for (const request of requests.claude)
      expect(
        texts(request.body).some(
          (t) =>
            /Contents of \/.*\/project\/CLAUDE\.md \(project instructions, checked into the codebase\):\n\n/.test(
              t,
            ) && t.includes(JOINED),
        ),
      ).toBe(true);
    // Codex: a user message of its own before the query, the file between INSTRUCTIONS tags.
    for (const request of requests.codex) {
      const input = (request.body as { input: Array<{ role?: string; content?: Array<{ text?: string }> }> })
        .input;
      const at = input.findIndex((item) =>
        (item.content ?? []).some((part) => part.text?.startsWith('# AGENTS.md instructions for /')),
      );
      expect(input[at]?.role).toBe('user');
      const part = input[at]?.content?.find((p) => p.text?.startsWith('# AGENTS.md'))?.text ?? '';
      expect(part).toMatch(/^# AGENTS\.md instructions for \/.*\/project\n\n<INSTRUCTIONS>\n/);
      expect(part.endsWith(`<INSTRUCTIONS>\n${JOINED}\n</INSTRUCTIONS>`)).toBe(true);
      expect(input[at + 1]?.content?.map((p) => p.text)).toEqual([request.view?.query]);
    }
    // Gemini CLI: the project context of the session context, naming the project's GEMINI.md.
    for (const request of requests.gemini)
      expect(
        texts(request.body).some(
          (t) => /--- Context from: \/.*\/project\/GEMINI\.md ---\n/.test(t) && t.includes(JOINED.trimEnd()),
        ),
      ).toBe(true);

    const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
    const raw = await readFile(path.join(out, json ?? ''), 'utf8');
    const report: Report = reportSchema.parse(JSON.parse(raw));
    expect(report.settings.memory).toEqual([
      { sha256: sha(FIRST), bytes: Buffer.byteLength(FIRST) },
      { sha256: sha(SECOND), bytes: Buffer.byteLength(SECOND) },
    ]);
    for (const secret of ['ROUTE-MARK', 'memory/CLAUDE.md', 'more.md']) expect(raw).not.toContain(secret);
    const markdown = await readFile(path.join(out, (json ?? '').replace(/\.json$/, '.md')), 'utf8');
    expect(markdown).toContain('- Memory installed: 2 files joined in order (118 bytes; SHA-256 ');
    expect(markdown).not.toContain('ROUTE-MARK');

    expect(changes(before.home, await tree(home))).toEqual([]);
    expect(changes(before.tmp, await tree(tmp))).toEqual([]);
  }, 300_000);

  it('refuses a missing memory file and an empty one together, before any model call (exit 1)', async () => {
    const skill = path.join(world.work, 'handoff');
    const empty = await world.write('memory/empty.md', '\n');
    const from = world.model.requests.length;
    const r = await runCli(
      [
        'run',
        '--skill',
        skill,
        '--eval',
        path.join(world.work, 'evals.json'),
        '--memory',
        path.join(world.work, 'gone.md'),
        '--memory',
        empty,
      ],
      { env: env() },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gone.md: --memory: the memory file does not exist. Fix: ');
    expect(r.stderr).toContain('empty.md: --memory: the memory file is empty. Fix: ');
    expect(world.model.requests.length).toBe(from);
  });
});
