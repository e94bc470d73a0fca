import { access, constants, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { execa } from 'execa';
import type { AgentFacts } from '../agents/facts.js';
import { type GateResult, gateResult } from '../agents/gates.js';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { cliInstallPrefix, restoreCliInstall, saveCliInstall } from '../system/baseline-cache.js';
import type { AgentInputs } from './settings.js';

/**
 * Getting a `claude` to run (docs/action.md): `claude-path` as given, else the pinned
 * `@anthropic-ai/claude-code` in a private npm prefix, restored from the Actions cache (keyed by
 * version, OS and arch) or installed with npm and then saved. The binary is always called by its
 * absolute path; nothing is added to PATH.
 *
 * npm, not the curl installer: the package pins an exact version and its platform binary arrives
 * as an optional dependency that its postinstall links into place — so the install must run
 * scripts and keep optional dependencies, or `claude` is a placeholder that exits 1.
 * This is the one place the Action runs npm. Codex (`@openai/codex`, when it is among the agents)
 * is got the same way: `codex-path`, else the cache, else npm, its native binary an optional
 * dependency too.
 */

export interface AgentInstall {
  /** Absolute path of the executable. */
  bin: string;
  /** `path`: the executable `claude-path` (or `codex-path`) named. */
  source: 'path' | 'cache' | 'npm';
  /** The installed version (absent for a given path: the cli gate asks it). */
  version?: string;
}

/** Each measured agent's executable, by id. */
export type Installs = Partial<Record<AgentId, AgentInstall>>;

/** The executable of an agent as installed, else its own name (never started when it is not measured). */
export function installedBin(installs: Installs, id: AgentId): string {
  return installs[id]?.bin ?? agentFacts(id).bin;
}

/** A usable `claude` (or `codex`), or the cli gate's failure saying why there is none (exit 2). */
export type InstallResult = { ok: true; install: AgentInstall } | { ok: false; finding: GateResult };

/** Where the runner runs: a part of the cache key. */
export interface RunnerPlatform {
  runnerOs: string;
  arch: string;
}

/** Where npm puts the executable inside the prefix. */
export function prefixBin(prefix: string, bin = agentFacts(DEFAULT_AGENT).bin): string {
  return path.join(prefix, 'node_modules', '.bin', bin);
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
async function npmInstall(prefix: string, version: string, pkg: AgentFacts): Promise<GateResult | undefined> {
  const spec = `${pkg.npmPackage}@${version}`;
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
      `check that the version exists (npm view ${pkg.npmPackage} versions), or set ${pkg.inputs.path}`,
    );
  }
  return undefined;
}

/**
 * Resolves an agent's executable as its inputs say: its path input as given, else its version from
 * the cache or npm. A failure is the cli gate's finding (exit 2).
 */
export async function installAgent(
  pkg: AgentFacts,
  inputs: AgentInputs,
  platform: RunnerPlatform,
): Promise<InstallResult> {
  const opts = { ...platform, version: inputs.version };
  if (inputs.path !== undefined) {
    const bin = path.resolve(inputs.path);
    core.info(`${pkg.inputs.path} is set: using ${bin}, nothing is installed`);
    return { ok: true, install: { bin, source: 'path' } };
  }
  // Inside the workspace's cache folder: its cache path is then the same on every runner.
  const prefix = cliInstallPrefix(opts.version, undefined, pkg.id);
  const bin = prefixBin(prefix, pkg.bin);
  const cacheOptions = { version: opts.version, os: opts.runnerOs, arch: opts.arch, prefix, cli: pkg.id };

  const restored = await restoreCliInstall(cacheOptions);
  if (restored.hit === 'exact' && (await isExecutable(bin))) {
    core.info(`${pkg.label} ${opts.version} restored from the Actions cache (${restored.matchedKey})`);
    return { ok: true, install: { bin, source: 'cache', version: opts.version } };
  }
  core.info(
    restored.hit === 'miss'
      ? `no cached install: ${restored.reason}`
      : `the cached install ${restored.matchedKey} holds no ${path.relative(prefix, bin)}; installing again`,
  );
  await rm(prefix, { recursive: true, force: true });
  await mkdir(prefix, { recursive: true });
  const failed = await npmInstall(prefix, opts.version, pkg);
  if (failed) return { ok: false, finding: failed };
  if (!(await isExecutable(bin))) {
    return {
      ok: false,
      finding: gateResult(
        'cli',
        'fail',
        `npm installed ${pkg.npmPackage}@${opts.version} but ${bin} is missing or not executable`,
        `set ${pkg.inputs.path} to a working ${pkg.bin}`,
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
