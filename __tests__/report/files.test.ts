import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../src/errors.js';
import { writeMatrixReport } from '../../src/matrix/files.js';
import {
  fileNamePart,
  matrixReportStem,
  ReportWriteError,
  reportStem,
  writeValidatedReport,
} from '../../src/report/disk/files.js';
import { readReportFile, writeReport } from '../../src/report/files.js';
import { renderReportHtml } from '../../src/report/html/render.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/schemas/report.js';
import { TOOL_VERSION } from '../../src/version.js';
import { matrixFixture } from '../fakes/matrix-fixture.js';
import { reportFixture } from '../fakes/report-fixture.js';
import { thrown } from '../fakes/thrown.js';

// Lives beside the other report tests; it exercises src/report/disk/files.ts, the report's only writer.

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skilltrigger-report-files-'));
});

afterEach(async () => {
  await chmod(dir, 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

// No fallback folder: these tests are about the writer's own errors, and must leave nothing in /tmp.
const write = (report: Report = reportFixture(), outDir = join(dir, 'out')) =>
  writeReport(outDir, report, renderMarkdown(report), { fallbackDir: null });

describe('writeReport', () => {
  it('creates the folder and writes <date>-<skill>.json, .md and .html', async () => {
    const report = reportFixture();
    const outDir = join(dir, 'nested', 'results');
    const written = await writeReport(outDir, report, renderMarkdown(report));
    expect(written).toEqual({
      jsonPath: join(outDir, '2025-03-14-pdf-tables.json'),
      markdownPath: join(outDir, '2025-03-14-pdf-tables.md'),
      htmlPath: join(outDir, '2025-03-14-pdf-tables.html'),
    });
    expect(JSON.parse(await readFile(written.jsonPath, 'utf8'))).toEqual(report);
    expect(await readFile(written.markdownPath, 'utf8')).toBe(renderMarkdown(report));
    expect(await readFile(written.htmlPath, 'utf8')).toBe(renderReportHtml(report, TOOL_VERSION));
    expect((await readdir(outDir)).sort()).toEqual([
      '2025-03-14-pdf-tables.html',
      '2025-03-14-pdf-tables.json',
      '2025-03-14-pdf-tables.md',
    ]);
  });

  it('writes JSON that reads back as the same report', async () => {
    const report = reportFixture();
    const { jsonPath } = await write(report);
    expect(await readReportFile(jsonPath)).toEqual(report);
  });

  it('names later reports of the same day -2, -3, and leaves the earlier ones as they were', async () => {
    const first = await write();
    const before = await readFile(first.jsonPath, 'utf8');
    const second = await write();
    const third = await write();
    expect([first, second, third].map((w) => w.jsonPath.slice(dir.length + 5))).toEqual([
      '2025-03-14-pdf-tables.json',
      '2025-03-14-pdf-tables-2.json',
      '2025-03-14-pdf-tables-3.json',
    ]);
    expect(third.markdownPath).toBe(join(dir, 'out', '2025-03-14-pdf-tables-3.md'));
    expect(await readFile(first.jsonPath, 'utf8')).toBe(before);
  });

  it('dates by the UTC day of createdAt', async () => {
    const late = reportFixture({ createdAt: '2025-03-14T23:59:59.000Z' });
    const next = reportFixture({ createdAt: '2025-03-15T00:00:00.000Z' });
    expect((await write(late)).jsonPath).toMatch(/2025-03-14-pdf-tables\.json$/);
    expect((await write(next)).jsonPath).toMatch(/2025-03-15-pdf-tables\.json$/);
  });

  it('leaves no temporary file behind', async () => {
    await write();
    await write();
    const files = await readdir(join(dir, 'out'));
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(files).toHaveLength(6);
  });

  it('gives five reports written at once five distinct names, all complete', async () => {
    const reports = Array.from({ length: 5 }, (_, i) =>
      reportFixture({ tool: { name: 'skilltrigger', version: `0.1.${i}` } }),
    );
    const written = await Promise.all(reports.map((r) => write(r)));
    const stems = written.map((w) => w.jsonPath.replace(/\.json$/, ''));
    expect(new Set(stems).size).toBe(5);
    for (const w of written) expect(w.markdownPath).toBe(w.jsonPath.replace(/\.json$/, '.md'));
    for (const w of written) expect(w.htmlPath).toBe(w.jsonPath.replace(/\.json$/, '.html'));
    const files = await readdir(join(dir, 'out'));
    expect(files).toHaveLength(15);
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    // Each file holds the report that claimed it, whole.
    const versions = await Promise.all(
      written.map(async (w) => (await readReportFile(w.jsonPath)).tool.version),
    );
    expect(versions.sort()).toEqual(['0.1.0', '0.1.1', '0.1.2', '0.1.3', '0.1.4']);
  });

  it('skips a stem whose .md is already taken, without touching that file', async () => {
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    await writeFile(join(outDir, '2025-03-14-pdf-tables.md'), 'my notes');
    const written = await write();
    expect(written.jsonPath).toBe(join(outDir, '2025-03-14-pdf-tables-2.json'));
    expect(await readFile(join(outDir, '2025-03-14-pdf-tables.md'), 'utf8')).toBe('my notes');
    expect((await readdir(outDir)).sort()).toEqual([
      '2025-03-14-pdf-tables-2.html',
      '2025-03-14-pdf-tables-2.json',
      '2025-03-14-pdf-tables-2.md',
      '2025-03-14-pdf-tables.md',
    ]);
  });

  it('skips a stem whose .html is already taken, and gives back the .json and .md it claimed', async () => {
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    await writeFile(join(outDir, '2025-03-14-pdf-tables.html'), '<p>my page</p>');
    const written = await write();
    expect(written.htmlPath).toBe(join(outDir, '2025-03-14-pdf-tables-2.html'));
    expect(await readFile(join(outDir, '2025-03-14-pdf-tables.html'), 'utf8')).toBe('<p>my page</p>');
    expect((await readdir(outDir)).sort()).toEqual([
      '2025-03-14-pdf-tables-2.html',
      '2025-03-14-pdf-tables-2.json',
      '2025-03-14-pdf-tables-2.md',
      '2025-03-14-pdf-tables.html',
    ]);
  });

  it('keeps a hostile skill name inside the folder', async () => {
    const written = await write(reportFixture({ skill: '../../etc/passwd' }));
    expect(written.jsonPath).toBe(join(dir, 'out', '2025-03-14-etc-passwd.json'));
  });

  it('refuses to write a report that does not match the schema, and writes nothing', async () => {
    const report = reportFixture();
    const broken = { ...report, candidate: { ...report.candidate, verdict: 'maybe' } } as unknown as Report;
    const error = await thrown(write(broken));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/does not match its own schema.*\$\.candidate\.verdict/);
    await expect(readdir(join(dir, 'out'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a matrix report that does not match its schema through the same writer, and writes nothing', async () => {
    const broken = { ...matrixFixture(), schema: 'not-a-matrix' } as unknown as ReturnType<
      typeof matrixFixture
    >;
    const error = await thrown(writeMatrixReport(join(dir, 'out'), broken, '# matrix\n'));
    expect((error as Error).message).toMatch(
      /^skilltrigger bug: the matrix report does not match its own schema/,
    );
    await expect(readdir(join(dir, 'out'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('validates the JSON as masked, the form it is read back in, before it renders the page', async () => {
    const seen: unknown[] = [];
    let rendered = false;
    const error = await thrown(
      writeValidatedReport(
        join(dir, 'out'),
        'x',
        { note: 'sk-ant-api03-in-a-report' },
        {
          what: 'test report',
          validate: (value) => {
            seen.push(value);
            throw new Error('no');
          },
        },
        {
          markdown: '# x\n',
          html: () => {
            rendered = true;
            return '';
          },
        },
      ),
    );
    expect((error as Error).message).toBe(
      'skilltrigger bug: the test report does not match its own schema, so it was not written: no',
    );
    expect(seen).toEqual([{ note: '***' }]);
    expect(rendered).toBe(false);
    await expect(readdir(join(dir, 'out'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a folder it cannot create with exit 1, the folder and the OS error code', async () => {
    await writeFile(join(dir, 'a-file'), '');
    const outDir = join(dir, 'a-file', 'results');
    const error = await thrown(write(reportFixture(), outDir));
    expect(error).toBeInstanceOf(ReportWriteError);
    const writeError = error as ReportWriteError;
    expect(writeError.exitCode).toBe(ExitCode.input);
    expect(writeError.code).toBe('ENOTDIR');
    expect(writeError.message).toContain(outDir);
    expect(writeError.message).toContain('ENOTDIR');
    expect(writeError.message).not.toMatch(/\n\s+at /);
  });

  it.skipIf(process.getuid?.() === 0)('reports a read-only folder with EACCES', async () => {
    const outDir = join(dir, 'locked');
    await mkdir(outDir);
    await chmod(outDir, 0o500);
    const error = await thrown(write(reportFixture(), outDir));
    expect(error).toBeInstanceOf(ReportWriteError);
    expect((error as ReportWriteError).message).toMatch(/locked: EACCES \(permission denied\)/);
  });

  it('still claims names atomically on a filesystem without hard links', async () => {
    const noLinks = async () => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    };
    const outDir = join(dir, 'out');
    const report = reportFixture();
    const first = await writeReport(outDir, report, 'one', { link: noLinks });
    const second = await writeReport(outDir, report, 'two', { link: noLinks });
    expect(second.jsonPath).toBe(join(outDir, '2025-03-14-pdf-tables-2.json'));
    expect(await readFile(first.markdownPath, 'utf8')).toBe('one');
    expect(await readFile(second.markdownPath, 'utf8')).toBe('two');
    expect(await readReportFile(second.jsonPath)).toEqual(report);
    expect((await readdir(outDir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('readReportFile', () => {
  it('says a missing file is missing, with a fix', async () => {
    const path = join(dir, 'nope.json');
    const error = await thrown(readReportFile(path));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/nope\.json: no such file\. Fix: check the path/);
    expect((error as InputError).exitCode).toBe(ExitCode.input);
  });

  it('says a folder is not a report', async () => {
    const error = await thrown(readReportFile(dir));
    expect((error as InputError).problem).toBe('is a folder, not a report');
  });

  it('names the file when its content is not a report', async () => {
    const path = join(dir, 'other.json');
    await writeFile(path, '{"hello": "world"}');
    const error = await thrown(readReportFile(path));
    expect((error as InputError).message).toBe(
      `${path}: not a skilltrigger report: it has no "schema" field. Fix: pass a .json file written by \`skilltrigger run\``,
    );
  });
});

describe('file names', () => {
  it('keeps ordinary skill names and replaces anything that could leave the folder', () => {
    expect(fileNamePart('pdf-tables')).toBe('pdf-tables');
    expect(fileNamePart('My Skill v2.0')).toBe('My-Skill-v2.0');
    expect(fileNamePart('../../x')).toBe('x');
    expect(fileNamePart('a/b\\c')).toBe('a-b-c');
    expect(fileNamePart('...')).toBe('skill');
    expect(fileNamePart('日本語')).toBe('skill');
    expect(fileNamePart('x'.repeat(200))).toHaveLength(64);
  });

  it('stems a report as <UTC date>-<skill>', () => {
    expect(reportStem(reportFixture())).toBe('2025-03-14-pdf-tables');
  });

  it('stems a whole or merged matrix as <date>-matrix, and a leg after its shard, so legs in one folder keep apart', async () => {
    expect(matrixReportStem(matrixFixture())).toBe('2025-03-14-matrix');
    const leg = (index: number, count: number) => ({ ...matrixFixture(), shard: { index, count } });
    expect(matrixReportStem(leg(2, 3))).toBe('2025-03-14-matrix-shard-2-of-3');
    expect(matrixReportStem(leg(10, 12))).toBe('2025-03-14-matrix-shard-10-of-12');
    // Two legs and the merged matrix written to one folder: three stems, nothing renamed -2.
    for (const report of [leg(1, 2), leg(2, 2), matrixFixture()])
      await writeMatrixReport(dir, report, '# m\n');
    expect((await readdir(dir)).filter((f) => f.endsWith('.json')).sort()).toEqual([
      '2025-03-14-matrix-shard-1-of-2.json',
      '2025-03-14-matrix-shard-2-of-2.json',
      '2025-03-14-matrix.json',
    ]);
  });
});
