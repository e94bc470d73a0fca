import { access, constants, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { execa } from 'execa';
import { cliInstallPrefix, restoreCliInstall, saveCliInstall } from '../adapters/baseline-cache.js';
import { type GateResult, gateResult } from '../gates/gate.js';
import { CLAUDE_CODE_PACKAGE } from './constants.js';

/**
 * Getting a `claude` to run (docs/action.md): `claude-path` as given, else the pinned
 * `@anthropic-ai/claude-code` in a private npm prefix, restored from the Actions cache (keyed by
 * version, OS and arch) or installed with npm and then saved. The binary is always called by its
 * absolute path; nothing is added to PATH.
 *
 * npm, not the curl installer: the package pins an exact version and its platform binary arrives
 * as an optional dependency that its postinstall links into place — so the install must run
 * scripts and keep optional dependencies, or `claude` is a placeholder that exits 1.
 * This is the one place the Action runs npm.
 */

export interface ClaudeInstall {
  /** Absolute path of the executable. */
  bin: string;
  source: 'claude-path' | 'cache' | 'npm';
  /** The installed version (absent for claude-path: the cli gate asks it). */
  version?: string;
}

/** A usable `claude`, or the cli gate's failure saying why there is none (exit 2). */
export type InstallResult = { ok: true; install: ClaudeInstall } | { ok: false; finding: GateResult };

export interface InstallOptions {
  version: string;
  claudePath?: string;
  runnerOs: string;
  arch: string;
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

/** Installs the package into the prefix; a failure is the cli gate's finding. */
async function npmInstall(prefix: string, version: string): Promise<GateResult | undefined> {
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
    return gateResult(
      'cli',
      'fail',
      `npm could not install ${spec} (exit ${result.exitCode ?? 'none'}): ${tail}`,
      `check that the version exists (npm view ${CLAUDE_CODE_PACKAGE} versions), or set claude-path`,
    );
  }
  return undefined;
}

/** Resolves a `claude` executable as InstallOptions say. A failure is the cli gate's finding (exit 2). */
export async function installClaude(opts: InstallOptions): Promise<InstallResult> {
  if (opts.claudePath !== undefined) {
    const bin = path.resolve(opts.claudePath);
    core.info(`claude-path is set: using ${bin}, nothing is installed`);
    return { ok: true, install: { bin, source: 'claude-path' } };
  }
  // Inside the workspace's cache folder: its cache path is then the same on every runner.
  const prefix = cliInstallPrefix(opts.version);
  const bin = prefixBin(prefix);
  const cacheOptions = { version: opts.version, os: opts.runnerOs, arch: opts.arch, prefix };

  const restored = await restoreCliInstall(cacheOptions);
  if (restored.hit === 'exact' && (await isExecutable(bin))) {
    core.info(`Claude Code ${opts.version} restored from the Actions cache (${restored.matchedKey})`);
    return { ok: true, install: { bin, source: 'cache', version: opts.version } };
  }
  core.info(
    restored.hit === 'miss'
      ? `no cached install: ${restored.reason}`
      : `the cached install ${restored.matchedKey} holds no ${path.relative(prefix, bin)}; installing again`,
  );
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  const failed = await npmInstall(prefix, opts.version);
  if (failed) return { ok: false, finding: failed };
  if (!(await isExecutable(bin))) {
    return {
      ok: false,
      finding: gateResult(
        'cli',
        'fail',
        `npm installed ${CLAUDE_CODE_PACKAGE}@${opts.version} but ${bin} is missing or not executable`,
        'set claude-path to a working claude',
      ),
    };
  }
  const saved = await saveCliInstall(cacheOptions);
  core.info(
    saved.saved
      ? `saved the install to the Actions cache as ${saved.key}`
      : `the install was not cached (${saved.code}): ${saved.reason}`,
  );
  return { ok: true, install: { bin, source: 'npm', version: opts.version } };
}
