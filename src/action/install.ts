import { access, constants, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { execa } from 'execa';
import { type GateResult, gateResult } from '../agents/agent.js';
import {
  type CachedCli,
  cliInstallPrefix,
  restoreCliInstall,
  saveCliInstall,
} from '../system/baseline-cache.js';
import { CLAUDE_CODE_PACKAGE, CODEX_PACKAGE, type InputName, Inputs } from './constants.js';

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

/** What differs between the CLIs this module gets. */
interface CliPackage {
  cli: CachedCli;
  /** For the log and the findings: `Claude Code`. */
  label: string;
  npmPackage: string;
  /** The executable's name in `node_modules/.bin`. */
  bin: string;
  /** The input that names an executable instead. */
  pathInput: InputName;
}

const PACKAGES: Record<CachedCli, CliPackage> = {
  claude: {
    cli: 'claude',
    label: 'Claude Code',
    npmPackage: CLAUDE_CODE_PACKAGE,
    bin: 'claude',
    pathInput: Inputs.ClaudePath,
  },
  codex: {
    cli: 'codex',
    label: 'Codex',
    npmPackage: CODEX_PACKAGE,
    bin: 'codex',
    pathInput: Inputs.CodexPath,
  },
};

export interface ClaudeInstall {
  /** Absolute path of the executable. */
  bin: string;
  /** `path`: the executable `claude-path` (or `codex-path`) named. */
  source: 'path' | 'cache' | 'npm';
  /** The installed version (absent for a given path: the cli gate asks it). */
  version?: string;
}

/** A usable `claude` (or `codex`), or the cli gate's failure saying why there is none (exit 2). */
export type InstallResult = { ok: true; install: ClaudeInstall } | { ok: false; finding: GateResult };

export interface InstallOptions {
  version: string;
  claudePath?: string;
  runnerOs: string;
  arch: string;
}

/** Where npm puts the executable inside the prefix. */
export function prefixBin(prefix: string, bin = 'claude'): string {
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
async function npmInstall(prefix: string, version: string, pkg: CliPackage): Promise<GateResult | undefined> {
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
      `check that the version exists (npm view ${pkg.npmPackage} versions), or set ${pkg.pathInput}`,
    );
  }
  return undefined;
}

/** Resolves a `claude` executable as InstallOptions say. A failure is the cli gate's finding (exit 2). */
export function installClaude(opts: InstallOptions): Promise<InstallResult> {
  return installCli(PACKAGES.claude, opts.claudePath, opts);
}

/** Resolves a `codex` executable (`codex-path`, else `codex-version` installed), as for claude. */
export function installCodex(
  opts: Omit<InstallOptions, 'claudePath'> & { codexPath?: string },
): Promise<InstallResult> {
  return installCli(PACKAGES.codex, opts.codexPath, opts);
}

async function installCli(
  pkg: CliPackage,
  givenPath: string | undefined,
  opts: Omit<InstallOptions, 'claudePath'>,
): Promise<InstallResult> {
  if (givenPath !== undefined) {
    const bin = path.resolve(givenPath);
    core.info(`${pkg.pathInput} is set: using ${bin}, nothing is installed`);
    return { ok: true, install: { bin, source: 'path' } };
  }
  // Inside the workspace's cache folder: its cache path is then the same on every runner.
  const prefix = cliInstallPrefix(opts.version, undefined, pkg.cli);
  const bin = prefixBin(prefix, pkg.bin);
  const cacheOptions = { version: opts.version, os: opts.runnerOs, arch: opts.arch, prefix, cli: pkg.cli };

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
        `set ${pkg.pathInput} to a working ${pkg.bin}`,
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
