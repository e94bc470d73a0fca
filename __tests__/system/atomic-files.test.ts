import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCode } from '../../src/guards.js';
import { replaceFile } from '../../src/system/atomic-files.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-atomic-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replaceFile', () => {
  it('writes a new file and replaces an old one whole, leaving no temporary file behind', async () => {
    const file = path.join(dir, 'results.json');
    await replaceFile(file, 'first\n');
    expect(await readFile(file, 'utf8')).toBe('first\n');
    await replaceFile(file, 'second\n');
    expect(await readFile(file, 'utf8')).toBe('second\n');
    expect(await readdir(dir)).toEqual(['results.json']);
  });

  it("fails with the OS's code when the name is a folder, and removes its temporary file", async () => {
    const folder = path.join(dir, 'taken');
    await mkdir(folder);
    await writeFile(path.join(folder, 'inside'), 'x');
    const error = await replaceFile(folder, 'text').catch((e: unknown) => e);
    expect(errorCode(error)).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST)$/);
    expect(await readdir(dir)).toEqual(['taken']);
  });
});
