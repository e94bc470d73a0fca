import { appendFile, mkdir, mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tailRollout } from '../../../src/agents/codex/rollout-tail.js';

// Real files in a temp folder, written as Codex writes its rollout: the folder appears after the
// start, lines are appended, a write may stop mid-line.
let sessions = '';

beforeEach(async () => {
  sessions = path.join(await mkdtemp(path.join(tmpdir(), 'skilltrigger-tail-')), 'sessions');
});

afterEach(async () => {
  await rm(path.dirname(sessions), { recursive: true, force: true });
});

async function collect(lines: AsyncIterable<string>, out: string[]): Promise<void> {
  for await (const line of lines) out.push(line);
}

const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

describe('tailing the rollout', () => {
  it('finds the file once it appears, hands out whole lines as they are appended, and stops after end', async () => {
    const tail = tailRollout(sessions, 5);
    const seen: string[] = [];
    const done = collect(tail.lines, seen);
    const day = path.join(sessions, '2026', '12', '06');
    await mkdir(day, { recursive: true });
    const file = path.join(day, 'rollout-2026-12-06T03-00-00-01a2.jsonl');
    await writeFile(file, '{"a":1}\n{"b":');
    await until(() => seen.length === 1);
    expect(seen).toEqual(['{"a":1}']);
    // The cut line is held back until its newline comes.
    await appendFile(file, '2}\n\n{"c":"é');
    await until(() => seen.length === 2);
    expect(seen).toEqual(['{"a":1}', '{"b":2}']);
    await appendFile(file, '"}\n');
    tail.end();
    await done;
    expect(seen).toEqual(['{"a":1}', '{"b":2}', '{"c":"é"}']);
  });

  it('after end, what the writer left is read once more, a last line without its newline included', async () => {
    const day = path.join(sessions, '2026', '12', '06');
    await mkdir(day, { recursive: true });
    await writeFile(path.join(day, 'rollout-x.jsonl'), '{"a":1}\n{"cut');
    const tail = tailRollout(sessions, 5);
    tail.end();
    const seen: string[] = [];
    await collect(tail.lines, seen);
    expect(seen).toEqual(['{"a":1}', '{"cut']);
  });

  it('no rollout at all: the lines end when the process has, empty', async () => {
    const tail = tailRollout(sessions, 5);
    const seen: string[] = [];
    const done = collect(tail.lines, seen);
    tail.end();
    await done;
    expect(seen).toEqual([]);
  });

  it("the session's own file is the first by name: a sub-agent's, started later, is not read", async () => {
    const day = path.join(sessions, '2026', '12', '06');
    await mkdir(day, { recursive: true });
    await writeFile(path.join(day, 'rollout-2026-12-06T03-00-01-01a3.jsonl'), '{"agent":"sub"}\n');
    await writeFile(path.join(day, 'rollout-2026-12-06T03-00-00-01a2.jsonl'), '{"agent":"main"}\n');
    const tail = tailRollout(sessions, 5);
    tail.end();
    const seen: string[] = [];
    await collect(tail.lines, seen);
    expect(seen).toEqual(['{"agent":"main"}']);
  });

  it('leaving early closes the file', async () => {
    const day = path.join(sessions, '2026', '12', '06');
    await mkdir(day, { recursive: true });
    await writeFile(path.join(day, 'rollout-x.jsonl'), '{"a":1}\n{"b":2}\n');
    const tail = tailRollout(sessions, 5);
    for await (const line of tail.lines) {
      expect(line).toBe('{"a":1}');
      break;
    }
    // No descriptor of this process still points at the file (Linux: /proc/self/fd).
    const open = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    expect(open.filter((target) => target.startsWith(sessions))).toEqual([]);
  });
});
