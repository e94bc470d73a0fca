import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGate } from '../../src/preflight/render.js';
import { holdOffSleep } from '../../src/preflight/sleep.js';
import { REPO_ROOT } from '../fakes/cli.js';

/**
 * The sleep gate with tiny stand-in holders on PATH (the real systemd-inhibit needs a system bus
 * this machine does not have; caffeinate is macOS-only). The stand-ins run the held command as the
 * real ones do, so the pid watch inside it is real.
 */
let bin: string;
let okEnv: NodeJS.ProcessEnv;

async function script(name: string, body: string) {
  const file = path.join(bin, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
}

/** Alive and not a zombie (an orphan may wait a while for a reaper in a container). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!(await alive(pid))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !(await alive(pid));
}

beforeAll(async () => {
  bin = await mkdtemp(path.join(tmpdir(), 'skilltrigger-sleep-'));
  await script(
    'systemd-inhibit',
    'while [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done\nexec "$@"',
  );
  await script(
    'caffeinate',
    'exec sh -c \'while kill -0 "$1" 2>/dev/null; do sleep 1; done\' caffeinate "$4"',
  );
  okEnv = { PATH: `${bin}:${process.env.PATH ?? ''}` };
});

afterAll(async () => {
  await rm(bin, { recursive: true, force: true });
});

describe('holdOffSleep', () => {
  it('holds sleep off with a working holder and ends it on release', async () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const { result, holder } = await holdOffSleep({ env: okEnv, platform, probeMs: 200 });
      expect(result.status).toBe('ok');
      expect(holder).toBeDefined();
      const pid = holder?.pid ?? -1;
      expect(await alive(pid)).toBe(true);
      holder?.release();
      expect(await gone(pid, 3000)).toBe(true);
    }
  });

  it('warns with advice when the holder is missing or refuses, and on other platforms', async () => {
    const none = await holdOffSleep({ env: { PATH: '/nonexistent' }, platform: 'linux', probeMs: 200 });
    expect(none.result).toMatchObject({
      status: 'warn',
      reason: 'systemd-inhibit was not found on PATH, so sleep is not held off',
    });
    expect(none.result.fix).toMatch(/keep the machine awake/);

    const refusing = await mkdtemp(path.join(tmpdir(), 'skilltrigger-sleep-no-'));
    try {
      const inhibit = path.join(refusing, 'systemd-inhibit');
      const env = { PATH: `${refusing}:/usr/bin:/bin` };
      await writeFile(inhibit, '#!/bin/sh\necho "Failed to inhibit: Access denied" >&2\nexit 1\n');
      await chmod(inhibit, 0o755);
      const refused = await holdOffSleep({ env, platform: 'linux' });
      expect(refused.result).toMatchObject({
        status: 'warn',
        reason: 'systemd-inhibit refused to hold off sleep (exit 1: Failed to inhibit: Access denied)',
      });
      expect(refused.result.fix).toMatch(/keep the machine awake/);
      expect(refused.holder).toBeUndefined();
      // No system bus (a container): one line, no fix to repeat on every run.
      for (const said of [
        'Failed to connect to bus: No such file or directory',
        "System has not been booted with systemd as init system (PID 1). Can't operate.",
      ]) {
        await writeFile(inhibit, `#!/bin/sh\necho "${said}" >&2\nexit 1\n`);
        const noBus = await holdOffSleep({ env, platform: 'linux' });
        expect(noBus.result).toEqual({
          gate: 'sleep',
          status: 'warn',
          reason:
            'sleep cannot be held off here: there is no system bus (a container?), so keep its host awake while measuring',
        });
        expect(renderGate(noBus.result).split('\n')).toHaveLength(1);
        expect((await holdOffSleep({ env: { ...env, CI: 'true' }, platform: 'linux' })).result.status).toBe(
          'ok',
        );
      }
    } finally {
      await rm(refusing, { recursive: true, force: true });
    }

    expect((await holdOffSleep({ env: {}, platform: 'win32' })).result).toMatchObject({
      status: 'warn',
      reason: 'cannot hold off sleep on win32',
    });
    expect((await holdOffSleep({ env: { CI: 'true' }, platform: 'win32' })).result.status).toBe('ok');
  });

  it('ends the holder with skilltrigger: on a normal exit, and within seconds of a SIGKILL', async () => {
    const lib = pathToFileURL(path.join(REPO_ROOT, 'lib/preflight/sleep.js')).href;
    const program = `
      const { holdOffSleep } = await import(${JSON.stringify(lib)});
      const { holder } = await holdOffSleep({ env: { PATH: ${JSON.stringify(okEnv.PATH)} }, platform: 'linux', probeMs: 200 });
      process.stdout.write(String(holder?.pid ?? -1) + '\\n');
      if (process.argv[1] === 'hang') setInterval(() => {}, 1000);`;
    for (const mode of ['exit', 'hang'] as const) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', program, mode], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = await new Promise<number>((resolve) => {
        child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(Number(d.trim())));
      });
      expect(pid).toBeGreaterThan(0);
      if (mode === 'hang') {
        expect(await alive(pid)).toBe(true);
        child.kill('SIGKILL');
      }
      await new Promise((resolve) => child.once('close', resolve));
      expect(await gone(pid, 5000)).toBe(true);
    }
  });
});
