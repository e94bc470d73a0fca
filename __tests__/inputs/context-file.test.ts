import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { loadEvalSet } from '../../src/inputs/files.js';

/**
 * An eval set's context files, read relative to the eval set when it is loaded: every entry gets
 * its turns, and every bad file is refused together, naming the file, the line, the entry that
 * named it and the fix (docs/context.md, "A context per entry").
 */
const TURNS = [
  { role: 'user', content: 'The deploy broke after the rename.' },
  { role: 'assistant', content: 'Fixed deploy.sh; it sourced the old env file.' },
];

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-context-file-'));
  await mkdir(path.join(dir, 'evals', 'contexts'), { recursive: true });
  await writeFile(path.join(dir, 'evals', 'contexts', 'deploy.json'), JSON.stringify(TURNS));
  await writeFile(
    path.join(dir, 'evals', 'contexts', 'bad.json'),
    '[\n  {"role": "user", "content": "a"},\n  {"role": "system", "content": "b"}\n]',
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function evalSet(entries: unknown[]): Promise<string> {
  const file = path.join(dir, 'evals', `set-${Math.random().toString(16).slice(2)}.json`);
  await writeFile(file, JSON.stringify(entries, null, 2));
  return file;
}

describe('loading an eval set with context files', () => {
  it('reads each file relative to the eval set, once for the entries that share it', async () => {
    const file = await evalSet([
      { id: 'a', query: 'write the handoff', should_trigger: true, context: 'contexts/deploy.json' },
      { id: 'b', query: 'hand it over', should_trigger: true, context: './contexts/deploy.json' },
      { id: 'c', query: 'what does this regex match', should_trigger: false },
    ]);
    const set = await loadEvalSet(file, 'handoff');
    expect(set.items.map((i) => i.context)).toEqual([
      { file: 'contexts/deploy.json', turns: TURNS },
      { file: './contexts/deploy.json', turns: TURNS },
      undefined,
    ]);
    expect(set.items[0]?.context?.turns).toBe(set.items[1]?.context?.turns);
  });

  it('refuses a missing file and a malformed one together, naming the entry that named each', async () => {
    const file = await evalSet([
      { id: 'gone', query: 'write the handoff', should_trigger: true, context: 'contexts/gone.json' },
      { id: 'bad', query: 'hand it over', should_trigger: true, context: 'contexts/bad.json' },
      { id: 'c', query: 'what does this regex match', should_trigger: false },
    ]);
    const error = await loadEvalSet(file, 'handoff').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputErrors);
    const message = (error as InputErrors).message;
    expect(message).toContain(
      `${file} (entry "gone"): its context "contexts/gone.json" (${path.join(dir, 'evals', 'contexts', 'gone.json')}): the context file does not exist. Fix: write the path relative to the folder of the eval set`,
    );
    expect(message).toContain(
      `${path.join(dir, 'evals', 'contexts', 'bad.json')}:line 3 (turn #2, the context of ${file} entry "bad"): has the role the string "system". Fix: give "role"`,
    );
  });
});
