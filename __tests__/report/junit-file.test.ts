import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkilltriggerError } from '../../src/errors.js';
import { writeRenderingFile } from '../../src/report/disk/files.js';
import { renderJunit } from '../../src/report/junit.js';
import { parseJunit } from '../fakes/junit-shape.js';
import { reportFixture } from '../fakes/report-fixture.js';

/** `run --junit <file>`: written through the report-file adapter, whole or not at all. */
let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-junit-file-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('writeRenderingFile', () => {
  it('creates the folder, replaces an older file of that name, and leaves no temporary file', async () => {
    const file = path.join(work, 'ci', 'reports', 'skilltrigger.xml');
    await writeRenderingFile(file, 'old', 'JUnit XML', '--junit');
    await writeRenderingFile(file, renderJunit(reportFixture()), 'JUnit XML', '--junit');
    expect(parseJunit(await readFile(file, 'utf8')).tests).toBe(8);
    expect(await readdir(path.dirname(file))).toEqual(['skilltrigger.xml']);
  });

  it('refuses a path it cannot write with exit 1, naming the file and the fix', async () => {
    const folder = path.join(work, 'is-a-folder');
    await mkdir(folder);
    const error = await writeRenderingFile(folder, 'x', 'JUnit XML', '--junit').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkilltriggerError);
    expect((error as SkilltriggerError).exitCode).toBe(1);
    expect((error as SkilltriggerError).message).toBe(
      `cannot write the JUnit XML to ${folder}: EISDIR (the path is a folder). The report itself was written. Fix: name a writable file with --junit`,
    );
    const blocker = path.join(work, 'a-file');
    await writeFile(blocker, '');
    await expect(
      writeRenderingFile(path.join(blocker, 'x.xml'), 'x', 'JUnit XML', '--junit'),
    ).rejects.toThrow(
      `cannot write the JUnit XML to ${path.join(blocker, 'x.xml')}: EEXIST (the path exists and is not a folder)`,
    );
    expect(await readdir(folder)).toEqual([]);
  });
});
