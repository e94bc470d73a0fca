import { access, constants, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { execa } from 'execa';
import { restoreCliInstall, saveCliInstall } from '../adapters/baseline-cache.js';
import { GateError } from '../errors.js';
import { CLAUDE_CODE_PACKAGE } from './constants.js';

/**
 * Getting a `claude` to run (SPEC §3): `claude-path` as given, else the pinned
 * `@anthropic-ai/claude-code` in a private npm prefix, restored from the Actions cache (keyed by
 * version, OS and arch) or installed with npm and then saved. The binary is always called by its
 * absolute path; nothing is added to PATH.
 *
 * npm, not the curl installer: the package pins an exact version and its platform binary arrives
 * as an optional dependency that its postinstall links into place — so the install must run
 * scripts and keep optional dependencies, or `claude` is a placeholder that exits 1 (anchors §13).
 * This is the one place the Action runs npm.
 */

export interface ClaudeInstall {
  /** Absolute path of the executable. */
  bin: string;
  source: 'claude-path' | 'cache' | 'npm';
  /** The installed version (absent for claude-path: the cli gate asks it). */
  version?: string;
}

export interface InstallOptions {
  version: string;
  claudePath?: string;
  runnerOs: string;
  arch: string;
  /** RUNNER_TEMP: the same absolute path on every hosted runner of an OS, so cache entries match. */
  runnerTemp?: string;
}

/** The private prefix for one version. The cache version hashes this path, so it must be stable. */
export function installPrefix(runnerTemp: string | undefined, version: string): string {
  return path.join(runnerTemp || os.tmpdir(), 'skilltrigger-claude-code', version);
}

/** Where npm puts the executable inside the prefix. */
export function prefixBin(prefix: string): string {
  return path.join(prefix, 'node_modules', '.bin', 'claude');
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function npmInstall(prefix: string, version: string): Promise<void> {
  const spec = `${CLAUDE_CODE_PACKAGE}@${version}`;
  const args = [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    // The package's postinstall links the platform binary in; an inherited ignore-scripts or
    // omit=optional from the runner's npm config would leave a placeholder that exits 1.
    '--ignore-scripts=false',
    '--include=optional',
    spec,
  ];
  core.info(`npm ${args.join(' ')}`);
  const result = await execa('npm', args, { reject: false, stdin: 'ignore', all: true });
  if (result.exitCode !== 0) {
    const tail = (result.all ?? result.message).split('\n').filter(Boolean).slice(-5).join('\n');
    throw new GateError(
      `gate cli failed: npm could not install ${spec} (exit ${result.exitCode ?? 'none'}): ${tail}. Fix: check that the version exists (npm view ${CLAUDE_CODE_PACKAGE} versions), or set claude-path`,
    );
  }
}

/** Resolves a `claude` executable as InstallOptions say. A failure is a GateError (exit 2). */
export async function installClaude(opts: InstallOptions): Promise<ClaudeInstall> {
  if (opts.claudePath !== undefined) {
    const bin = path.resolve(opts.claudePath);
    core.info(`claude-path is set: using ${bin}, nothing is installed`);
    return { bin, source: 'claude-path' };
  }
  const prefix = installPrefix(opts.runnerTemp, opts.version);
  const bin = prefixBin(prefix);
  const cacheOptions = { version: opts.version, os: opts.runnerOs, arch: opts.arch, prefix };

  const restored = await restoreCliInstall(cacheOptions);
  if (restored.hit === 'exact' && (await isExecutable(bin))) {
    core.info(`Claude Code ${opts.version} restored from the Actions cache (${restored.matchedKey})`);
    return { bin, source: 'cache', version: opts.version };
  }
  core.info(
    restored.hit === 'miss'
      ? `no cached install: ${restored.reason}`
      : `the cached install ${restored.matchedKey} holds no ${path.relative(prefix, bin)}; installing again`,
  );
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  await npmInstall(prefix, opts.version);
  if (!(await isExecutable(bin))) {
    throw new GateError(
      `gate cli failed: npm installed ${CLAUDE_CODE_PACKAGE}@${opts.version} but ${bin} is missing or not executable. Fix: set claude-path to a working claude`,
    );
  }
  const saved = await saveCliInstall(cacheOptions);
  core.info(
    saved.saved
      ? `saved the install to the Actions cache as ${saved.key}`
      : `the install was not cached (${saved.code}): ${saved.reason}`,
  );
  return { bin, source: 'npm', version: opts.version };
}
