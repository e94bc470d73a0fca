import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { ReportWriteError } from '../../src/report/disk/files.js';
import { writeReport } from '../../src/report/files.js';
import { reportSchema } from '../../src/schemas/report.js';
import { REPO_ROOT } from '../fakes/cli.js';
import { reportFixture } from '../fakes/report-fixture.js';
import { faultTitle } from './cases.js';
import { canMountTmpfs } from './support.js';

/**
 * A disk that refuses the report. A report holds minutes of model calls, so a refused write must
 * not lose it: it goes to a fallback folder, or into the error message itself, and the error
 * (exit 1) says where. A read-only and a full filesystem are real tmpfs mounts in a private mount
 * namespace (`unshare -m`, so nothing outside this test sees them); where that is not allowed the
 * two cases are skipped. The writer runs in that namespace as a child process on the built lib/.
 */

/** Decided before collection, so the two cases can be skipped by name. */
const canMount = canMountTmpfs();

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-report-write-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

interface ChildOutcome {
  code?: string;
  message?: string;
  exitCode?: number;
  saved?: { kind: string; report?: { jsonPath: string; markdownPath: string } };
  leftInMount: string[];
}

function isChildOutcome(value: unknown): value is ChildOutcome {
  return typeof value === 'object' && value !== null && 'leftInMount' in value;
}

/** Mounts a tmpfs with `mountOptions` at a fresh folder and writes the fixture report into it. */
async function writeOnMount(
  name: string,
  mountOptions: string,
): Promise<ChildOutcome & { fallback: string }> {
  const mount = path.join(work, `${name}-mount`);
  const fallback = path.join(work, `${name}-fallback`);
  await mkdir(mount);
  await mkdir(fallback);
  const reportFile = path.join(work, `${name}-report.json`);
  await writeFile(reportFile, JSON.stringify(reportFixture()));
  const script = path.join(work, `${name}-write.mjs`);
  const lib = path.join(REPO_ROOT, 'lib', 'report', 'files.js');
  await writeFile(
    script,
    `import { readFileSync, readdirSync } from 'node:fs';
import { writeReport } from ${JSON.stringify(lib)};
const [mount, fallback, reportFile] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
let outcome = {};
try {
  await writeReport(mount + '/results', report, '# report\\n'.repeat(200), { fallbackDir: fallback });
} catch (error) {
  outcome = { code: error.code, message: error.message, exitCode: error.exitCode, saved: error.saved };
}
outcome.leftInMount = readdirSync(mount, { recursive: true });
process.stdout.write(JSON.stringify(outcome));
`,
  );
  const child = spawnSync(
    'unshare',
    [
      '-m',
      '--',
      'sh',
      '-c',
      'mount -t tmpfs -o "$1" none "$2" && exec "$5" "$6" "$2" "$3" "$4"',
      'sh',
      mountOptions,
      mount,
      fallback,
      reportFile,
      process.execPath,
      script,
    ],
    { encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  const parsed: unknown = JSON.parse(child.stdout);
  if (!isChildOutcome(parsed)) throw new Error(`unexpected child output: ${child.stdout}`);
  return { ...parsed, fallback };
}

async function expectSavedIn(fallback: string, outcome: ChildOutcome) {
  expect(outcome.saved?.kind).toBe('fallback');
  const jsonPath = outcome.saved?.report?.jsonPath ?? '';
  expect(path.dirname(path.dirname(jsonPath))).toBe(fallback);
  expect(outcome.message).toContain(`saved instead to ${jsonPath}`);
  const saved = reportSchema.parse(JSON.parse(await readFile(jsonPath, 'utf8')));
  expect(saved).toEqual(reportFixture());
}

describe('a disk that refuses the report', () => {
  it.skipIf(!canMount)(faultTitle('report-write-erofs'), async () => {
    const outcome = await writeOnMount('erofs', 'ro,size=64k');
    expect(outcome.code).toBe('EROFS');
    expect(outcome.exitCode).toBe(ExitCode.input);
    expect(outcome.message).toMatch(/results: EROFS \(read-only file system\)/);
    await expectSavedIn(outcome.fallback, outcome);
    expect(outcome.leftInMount).toEqual([]);
  });

  it.skipIf(!canMount)(faultTitle('report-write-enospc'), async () => {
    // One page: the folder fits, the report does not.
    const outcome = await writeOnMount('enospc', 'size=4k');
    expect(outcome.code).toBe('ENOSPC');
    expect(outcome.exitCode).toBe(ExitCode.input);
    expect(outcome.message).toMatch(/ENOSPC \(no space left on the device\)/);
    await expectSavedIn(outcome.fallback, outcome);
    // No half-written report or temp file is left on the full disk.
    expect(outcome.leftInMount.filter((f) => f !== 'results')).toEqual([]);
  });

  it(faultTitle('report-write-no-fallback'), async () => {
    const file = path.join(work, 'a-regular-file');
    await writeFile(file, '');
    const report = reportFixture();
    const error = await writeReport(path.join(file, 'results'), report, '# report\n', {
      fallbackDir: path.join(file, 'fallback'),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReportWriteError);
    if (!(error instanceof ReportWriteError)) return;
    expect(error.exitCode).toBe(ExitCode.input);
    expect(error.message).toContain('ENOTDIR');
    // The report itself travels in the message, which the CLI prints to stderr.
    const json = /\n(\{[\s\S]*\})\n/.exec(error.message)?.[1] ?? '';
    expect(reportSchema.parse(JSON.parse(json))).toEqual(report);
    expect(await readdir(path.dirname(file))).not.toContain('fallback');
  });

  it(faultTitle('report-write-limit-twice'), async () => {
    const fallback = path.join(work, 'limit-fallback');
    await mkdir(fallback);
    const refuse = async () => {
      throw Object.assign(new Error('EFBIG: file too large'), { code: 'EFBIG' });
    };
    const error = await writeReport(path.join(work, 'limit-results'), reportFixture(), '# report\n', {
      fallbackDir: fallback,
      link: refuse,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReportWriteError);
    if (!(error instanceof ReportWriteError)) return;
    expect(error.code).toBe('EFBIG');
    expect(error.message).toContain('so here is the measured report');
    expect(await readdir(fallback)).toEqual([]);
  });
});
