import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withGitFinding } from '../../../../src/agents/claude/gates/cli.js';
import { gateResult } from '../../../../src/agents/gates.js';
import { onPath } from '../../../../src/system/program-on-path.js';

describe('the cli gate without git on PATH', () => {
  const ok = gateResult('cli', 'ok', 'claude 2.1.328');

  it('keeps a working cli gate ok when git is found', () => {
    expect(withGitFinding(ok, true)).toEqual(ok);
  });

  it('warns, naming the changed git status block and the fix, when git is missing', () => {
    const found = withGitFinding(ok, false);
    expect(found.status).toBe('warn');
    expect(found.reason).toContain('claude 2.1.328');
    expect(found.reason).toContain('"(unavailable)" instead of "(clean)"');
    expect(found.fix).toMatch(/install git/);
  });

  it('leaves a failed cli gate as it was', () => {
    const failed = gateResult('cli', 'fail', 'no claude', 'install it');
    expect(withGitFinding(failed, false)).toEqual(failed);
  });
});

describe('onPath', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-onpath-'));
    await writeFile(path.join(dir, 'tool'), '#!/bin/sh\n');
    await chmod(path.join(dir, 'tool'), 0o755);
    await writeFile(path.join(dir, 'plain'), 'not executable');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds an executable in one of the folders, not a plain file or a missing name', async () => {
    const PATH = ['/does/not/exist', dir].join(path.delimiter);
    expect(await onPath('tool', PATH)).toBe(true);
    expect(await onPath('plain', PATH)).toBe(false);
    expect(await onPath('missing', PATH)).toBe(false);
    expect(await onPath('tool', undefined)).toBe(false);
  });
});
