import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fakes/cli.js';

/** `npm run demo -- --help` and a mistyped mode: answered at once, before any build or model. */
const demo = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'demo.js'), ...args], { encoding: 'utf8' });

describe('scripts/demo.js', () => {
  it('--help lists every mode', () => {
    const r = demo('--help');
    expect(r.status).toBe(0);
    for (const mode of ['run', 'improve', 'init', 'matrix'])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${mode} `, 'm'));
    expect(r.stdout).toContain('SIMULATED');
  });

  it('a mistyped mode names the closest one and exits 1', () => {
    const r = demo('improv');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'demo: there is no mode "improv": did you mean improve? (npm run demo -- --help lists the modes)\n',
    );
  });
});
