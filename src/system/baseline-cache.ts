import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import * as cache from '@actions/cache';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { messageOf } from '../errors.js';

/**
 * The only module that touches `@actions/cache`: the baseline reports and the Claude CLI install.
 *
 * Keys (the cache service's limits: ≤ 512 characters, no commas — every segment is sanitized):
 * - baseline: `skilltrigger-baseline-<os>-<skill>-<sha>`, saved on the default branch for the
 *   measured commit; a drift run's refresh of it `…-<sha>-<tag>` (entries are immutable, so a
 *   refresh of a commit already saved needs a key of its own). Restored on a PR by the base sha: its
 *   newest refresh, else its push's entry, then by the prefix `skilltrigger-baseline-<os>-<skill>-`
 *   (the service answers the newest match); a drift run restores the newest by the prefix alone.
 * - CLI install: `skilltrigger-claude-<version>-<os>-<arch>`, restored by that exact key only.
 *
 * Paths. The cache *version* is a hash of the path strings given to the client (plus the
 * compression), and a restore only matches an entry with the same version; the client's tar stores
 * the entries relative to `GITHUB_WORKSPACE` and extracts them there. So everything cached lives in
 * one folder inside the workspace, `<workspace>/.skilltrigger-cache` (ignored by git: it holds a
 * `.gitignore` of `*`), and the client is given each path *relative to the workspace*: the same
 * string on every runner of a repository, whatever its absolute paths (self-hosted fleets,
 * container jobs, another RUNNER_TEMP). An absolute path would tie an entry to one runner's layout.
 *
 *     .skilltrigger-cache/baseline/<skill>/report.json     one directory per skill, cached on its own
 *     .skilltrigger-cache/claude-code/<version>/            the CLI install prefix
 *
 * The skill segment is part of the path, hence of the version: a prefix restore for skill `foo` can
 * never pick up an entry of skill `foo-bar`, although `…-foo-` is a prefix of `…-foo-bar-<sha>`.
 * @actions/glob roots a relative path at the process's cwd (and refuses `..`), which the runner
 * sets to the workspace for every action; a folder outside the workspace, or a step run elsewhere,
 * is given as an absolute path (as before: it then restores only on the same layout).
 *
 * Nothing here throws. A cache that is unavailable or fails is "not saved" or a miss, with a reason
 * for the log (the actions/cache habit: a cache is an optimization, never a failed job). The client
 * reports its own failures only through its log, so a miss cannot tell "no entry" from "service
 * down"; the reason says so. Timing: the client retries twirp 5xx 5× from 3 s (about 25 s).
 */

export const BASELINE_KEY_PREFIX = 'skilltrigger-baseline-';

/**
 * The agent CLIs the Action installs and caches (src/agents/registry.ts), each under its own key
 * prefix (`skilltrigger-<id>-`) and prefix folder (its npm package's own name: `claude-code`, `codex`).
 */
export type CachedCli = AgentId;
const cliKeyPrefix = (cli: CachedCli): string => `skilltrigger-${cli}-`;
const cliFolder = (cli: CachedCli): string => agentFacts(cli).npmPackage.split('/').at(-1) ?? cli;
/** The report's file name inside a skill's baseline directory. */
export const BASELINE_REPORT_FILE = 'report.json';

const MAX_KEY_LENGTH = 512;
const MAX_SKILL_SEGMENT = 120;
const SHA = /^[0-9a-fA-F]{7,64}$/;

/** Why a save did not happen. `exists` is normal (a re-run of a commit already saved). */
export type CacheSaveSkip = 'exists' | 'rejected' | 'unavailable' | 'invalid' | 'error';

export type CacheSaveResult =
  | { saved: true; key: string; entryId: number }
  | { saved: false; key: string; code: CacheSaveSkip; reason: string };

export type BaselineRestoreResult =
  | {
      hit: 'exact' | 'prefix';
      key: string;
      /** The key of the entry restored: the base sha's key, or the newest entry under the prefix. */
      matchedKey: string;
      /** `<dir>/baseline/<skill>/report.json`, freshly extracted. */
      reportPath: string;
    }
  | { hit: 'miss'; key: string; reason: string };

export type CliRestoreResult =
  | { hit: 'exact'; key: string; matchedKey: string; prefix: string }
  | { hit: 'miss'; key: string; reason: string };

export interface SaveBaselineOptions {
  /** The skill's name (sanitized into the key and the path). */
  skill: string;
  /** The commit the report measured (7–64 hex digits). */
  sha: string;
  /** The runner OS, e.g. `linux` (lower-cased into the key). */
  os: string;
  /** The report to save; copied to `<dir>/baseline/<skill>/report.json` first. */
  reportPath: string;
  /** The cache directory; must be the same absolute path on restore. Default `defaultCacheDir()`. */
  dir?: string;
  /** A refresh of the commit's baseline (a drift run's): the key gets `-<tag>`. */
  tag?: string;
}

export interface RestoreBaselineOptions {
  skill: string;
  /**
   * The PR's base commit: its baseline is restored if cached, else the newest one for the skill.
   * `latest`: the newest one for the skill, whatever commit it measured (a drift run's).
   */
  baseSha: string | 'latest';
  os: string;
  /** The cache directory given on save. Default `defaultCacheDir()`. */
  dir?: string;
}

export interface CliInstallOptions {
  /** The pinned CLI version, e.g. `2.1.328`. */
  version: string;
  os: string;
  /** e.g. `x64`, `arm64`. */
  arch: string;
  /** The install prefix, `cliInstallPrefix(version)`: inside the workspace, so its cache path is relative. */
  prefix: string;
  /** Which agent's CLI (default: the default agent's): its key prefix. */
  cli?: CachedCli;
}

/** The folder inside the workspace that holds everything skilltrigger caches. */
export const CACHE_FOLDER = '.skilltrigger-cache';

/** `GITHUB_WORKSPACE`, or the cwd outside a runner. */
function workspaceDir(): string {
  return resolve(process.env.GITHUB_WORKSPACE || process.cwd());
}

/** `<workspace>/.skilltrigger-cache`. */
export function defaultCacheDir(): string {
  return join(workspaceDir(), CACHE_FOLDER);
}

/**
 * `<workspace>/.skilltrigger-cache/claude-code/<version>` (`codex/<version>` for Codex): the private
 * npm prefix of one CLI version.
 */
export function cliInstallPrefix(
  version: string,
  dir: string = defaultCacheDir(),
  cli: CachedCli = DEFAULT_AGENT,
): string {
  return join(resolve(dir), cliFolder(cli), cacheSegment(version, 64));
}

/**
 * The path string @actions/cache is given for `path`: relative to the workspace (`/`-separated)
 * when it lies inside it and the step runs there, so the cache version is the same on every
 * runner; else absolute (see the module comment).
 */
export function cachePathOf(path: string): string {
  const workspace = workspaceDir();
  const rel = relative(workspace, resolve(path));
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside && resolve(process.cwd()) === workspace ? rel.split(sep).join('/') : resolve(path);
}

/**
 * Makes the cache folder, with a `.gitignore` of `*` when it is the workspace's own, so neither a
 * later step's `git add -A` nor `git status` sees the restored reports or the CLI install.
 */
async function prepareCacheDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (resolve(dir) !== defaultCacheDir()) return;
  const ignore = join(dir, '.gitignore');
  if (!(await isFile(ignore))) {
    await writeFile(ignore, '# skilltrigger: the Actions cache folder, never committed\n*\n');
  }
}

/**
 * A key (and path) segment: letters, digits, `.`, `_`, `-` only. Anything else, a leading dot or an
 * over-long name is replaced, and then a short hash of the original keeps distinct names distinct.
 */
export function cacheSegment(value: string, maxLength = MAX_SKILL_SEGMENT): string {
  const cleaned = value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_');
  if (cleaned === value && cleaned.length > 0 && cleaned.length <= maxLength) return cleaned;
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 8);
  return `${cleaned.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

function platformSegment(value: string): string {
  return cacheSegment(value.toLowerCase(), 32);
}

/** `skilltrigger-baseline-<os>-<skill>-`: every baseline of one skill on one OS. */
export function baselineKeyPrefix(os: string, skill: string): string {
  return `${BASELINE_KEY_PREFIX}${platformSegment(os)}-${cacheSegment(skill)}-`;
}

/** `skilltrigger-baseline-<os>-<skill>-<sha>`, or `…-<sha>-<tag>` for a refresh. */
export function baselineKey(os: string, skill: string, sha: string, tag?: string): string {
  const refresh = tag === undefined ? '' : `-${cacheSegment(tag, 64)}`;
  return `${baselineKeyPrefix(os, skill)}${cacheSegment(sha, 64)}${refresh}`;
}

/** `skilltrigger-claude-<version>-<os>-<arch>` (`skilltrigger-codex-…` for Codex) */
export function cliInstallKey(
  version: string,
  os: string,
  arch: string,
  cli: CachedCli = DEFAULT_AGENT,
): string {
  return `${cliKeyPrefix(cli)}${cacheSegment(version, 64)}-${platformSegment(os)}-${platformSegment(arch)}`;
}

/** `<dir>/baseline/<skill>`: the one path cached for a skill's baseline. */
export function baselineCacheDir(dir: string, skill: string): string {
  return join(resolve(dir), 'baseline', cacheSegment(skill));
}

const UNAVAILABLE =
  'the Actions cache service is not available here (ACTIONS_RESULTS_URL or ACTIONS_CACHE_URL is unset: ' +
  'not running as an Action step)';

async function isNonEmptyDir(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length > 0;
  } catch {
    return false;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Save `paths` under `key`, unless an entry with that key already exists. Entries are immutable, so
 * a lookup first turns the common "already saved" case into a plain `exists` (and skips the tar),
 * instead of the client's indistinct -1 after a 409.
 */
async function saveOnce(paths: string[], key: string): Promise<CacheSaveResult> {
  if (key.length > MAX_KEY_LENGTH) {
    return {
      saved: false,
      key,
      code: 'invalid',
      reason: `cache key is longer than ${MAX_KEY_LENGTH} characters`,
    };
  }
  if (!cache.isFeatureAvailable()) return { saved: false, key, code: 'unavailable', reason: UNAVAILABLE };
  try {
    const existing = await cache.restoreCache(paths.slice(), key, [], { lookupOnly: true });
    if (existing === key) {
      return { saved: false, key, code: 'exists', reason: `a cache entry with key ${key} already exists` };
    }
    const entryId = await cache.saveCache(paths.slice(), key);
    if (entryId === -1) {
      return {
        saved: false,
        key,
        code: 'rejected',
        reason:
          `the cache service did not save ${key} (a read-only token, the same key being saved by another job, ` +
          'or a service error; the cache log above says which)',
      };
    }
    return { saved: true, key, entryId };
  } catch (error) {
    return { saved: false, key, code: 'error', reason: `saving ${key} failed: ${messageOf(error)}` };
  }
}

/** Save one skill's report as the baseline for `sha`. Never throws. */
export async function saveBaseline(opts: SaveBaselineOptions): Promise<CacheSaveResult> {
  const key = baselineKey(opts.os, opts.skill, opts.sha, opts.tag);
  if (!SHA.test(opts.sha)) {
    return {
      saved: false,
      key,
      code: 'invalid',
      reason: `"${opts.sha}" is not a commit sha (7–64 hex digits)`,
    };
  }
  const root = opts.dir ?? defaultCacheDir();
  const skillDir = baselineCacheDir(root, opts.skill);
  const staged = join(skillDir, BASELINE_REPORT_FILE);
  try {
    if (!(await isFile(opts.reportPath))) {
      return { saved: false, key, code: 'invalid', reason: `no report file at ${opts.reportPath}` };
    }
    await prepareCacheDir(root);
    await mkdir(skillDir, { recursive: true });
    if (resolve(opts.reportPath) !== staged) await copyFile(opts.reportPath, staged);
  } catch (error) {
    return { saved: false, key, code: 'error', reason: `staging the report failed: ${messageOf(error)}` };
  }
  return saveOnce([cachePathOf(skillDir)], key);
}

/**
 * The keys a restore tries, in order (pure): for a base sha, its newest refresh (`<sha>-<tag>`, by
 * prefix), its push's own entry, then the newest for the skill; for `latest` (or a malformed sha,
 * where the newest baseline is better than none) the newest for the skill alone.
 */
export function restoreKeys(os: string, skill: string, baseSha: string | 'latest'): [string, ...string[]] {
  const prefix = baselineKeyPrefix(os, skill);
  if (baseSha === 'latest' || !SHA.test(baseSha)) return [prefix];
  const key = baselineKey(os, skill, baseSha);
  return [`${key}-`, key, prefix];
}

/**
 * Restore the baseline of `skill`: the base sha's report (a refresh of it first), else the newest
 * report saved for the skill on this OS. The skill's cache directory is emptied first, so a report
 * found there afterwards is the one just restored. Never throws.
 */
export async function restoreBaseline(opts: RestoreBaselineOptions): Promise<BaselineRestoreResult> {
  const prefix = baselineKeyPrefix(opts.os, opts.skill);
  const key = opts.baseSha === 'latest' ? prefix : baselineKey(opts.os, opts.skill, opts.baseSha);
  if (!cache.isFeatureAvailable()) return { hit: 'miss', key, reason: UNAVAILABLE };
  const root = opts.dir ?? defaultCacheDir();
  const skillDir = baselineCacheDir(root, opts.skill);
  const reportPath = join(skillDir, BASELINE_REPORT_FILE);
  const [primary, ...fallbacks] = restoreKeys(opts.os, opts.skill, opts.baseSha);
  try {
    await prepareCacheDir(root);
    await rm(skillDir, { recursive: true, force: true });
    // The service matches the primary key exactly and then by prefix, the restore keys exactly then
    // by prefix; the primary is repeated among them for a service that skips its prefix match.
    const matchedKey = await cache.restoreCache([cachePathOf(skillDir)], primary, [primary, ...fallbacks]);
    if (matchedKey === undefined) {
      return {
        hit: 'miss',
        key,
        reason:
          `no baseline cached under ${key === prefix ? '' : `${key} or `}${prefix}* (if the cache service failed, its warning is ` +
          'in the log above)',
      };
    }
    if (!(await isFile(reportPath))) {
      return { hit: 'miss', key, reason: `the cache entry ${matchedKey} holds no ${BASELINE_REPORT_FILE}` };
    }
    const exact = opts.baseSha !== 'latest' && (matchedKey === key || matchedKey.startsWith(`${key}-`));
    return { hit: exact ? 'exact' : 'prefix', key, matchedKey, reportPath };
  } catch (error) {
    return { hit: 'miss', key, reason: `restoring ${key} failed: ${messageOf(error)}` };
  }
}

/** Restore a CLI's install prefix for this exact version, OS and arch. Never throws. */
export async function restoreCliInstall(opts: CliInstallOptions): Promise<CliRestoreResult> {
  const key = cliInstallKey(opts.version, opts.os, opts.arch, opts.cli);
  if (!cache.isFeatureAvailable()) return { hit: 'miss', key, reason: UNAVAILABLE };
  const prefix = resolve(opts.prefix);
  try {
    // The prefix is `<cache folder>/<cli folder>/<version>`.
    await prepareCacheDir(dirname(dirname(prefix)));
    const matchedKey = await cache.restoreCache([cachePathOf(prefix)], key);
    if (matchedKey === undefined) {
      return { hit: 'miss', key, reason: `no CLI install cached under ${key}` };
    }
    return { hit: 'exact', key, matchedKey, prefix };
  } catch (error) {
    return { hit: 'miss', key, reason: `restoring ${key} failed: ${messageOf(error)}` };
  }
}

/** Save a CLI's install prefix (after a fresh install). Never throws. */
export async function saveCliInstall(opts: CliInstallOptions): Promise<CacheSaveResult> {
  const key = cliInstallKey(opts.version, opts.os, opts.arch, opts.cli);
  const prefix = resolve(opts.prefix);
  if (!(await isNonEmptyDir(prefix))) {
    return { saved: false, key, code: 'invalid', reason: `the install prefix ${prefix} is missing or empty` };
  }
  return saveOnce([cachePathOf(prefix)], key);
}
