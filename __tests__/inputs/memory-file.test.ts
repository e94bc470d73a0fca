import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, InputErrors } from '../../src/errors.js';
import { MEMORY_MAX_BYTES } from '../../src/inputs/memory.js';
import { loadMemoryFiles } from '../../src/inputs/memory-file.js';

/**
 * `--memory <file>`: each file read and checked before anything is spent; every defect of every
 * file refused together, each naming its file and the fix (exit 1).
 */
let dir = '';
const at = (name: string) => path.join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-memory-file-'));
  await writeFile(at('CLAUDE.md'), '# Routing\n\nUse the handoff skill for handoffs.\n');
  await writeFile(at('AGENTS.md'), 'Second file.');
  await writeFile(at('empty.md'), ' \n\n');
  await writeFile(at('latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(at('big.md'), 'x'.repeat(MEMORY_MAX_BYTES - 10));
  await mkdir(at('folder'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function refused(files: string[]): Promise<string[]> {
  const error = await loadMemoryFiles(files).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputErrors);
  expect((error as InputErrors).exitCode).toBe(ExitCode.input);
  return (error as InputErrors).errors.map((e) => e.message);
}

describe('loadMemoryFiles', () => {
  it('reads the files in order, as they are', async () => {
    const files = await loadMemoryFiles([at('CLAUDE.md'), at('AGENTS.md')]);
    expect(files.map((f) => f.text)).toEqual([
      '# Routing\n\nUse the handoff skill for handoffs.\n',
      'Second file.',
    ]);
  });

  it('refuses a missing file, a folder, an empty file and a non-UTF-8 one, all together', async () => {
    const messages = await refused([
      at('gone.md'),
      at('folder'),
      at('empty.md'),
      at('latin1.md'),
      at('CLAUDE.md'),
    ]);
    expect(messages).toHaveLength(4);
    expect(messages[0]).toMatch(/gone\.md: --memory: the memory file does not exist\. Fix: /);
    expect(messages[1]).toMatch(/folder: --memory: is a folder, not a memory file\. Fix: /);
    expect(messages[2]).toMatch(/empty\.md: --memory: the memory file is empty\. Fix: .*drop this --memory/);
    expect(messages[3]).toMatch(
      /latin1\.md: --memory: is not UTF-8 \(byte 3 is not valid\)\. Fix: save the file as UTF-8/,
    );
  });

  it('refuses files over 32 KiB together, which Codex would cut without a word', async () => {
    await expect(loadMemoryFiles([at('big.md')])).resolves.toHaveLength(1);
    const [message] = await refused([at('big.md'), at('CLAUDE.md')]);
    expect(message).toContain('big.md, ');
    expect(message).toMatch(/32,8\d\d bytes of memory together, over the 32,768 bytes Codex reads/);
    expect(message).toContain('Fix: ');
  });
});
