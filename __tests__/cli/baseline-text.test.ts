import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineLine, baselineText, looksLikePath } from '../../src/cli/baseline-text.js';
import { InputError, UsageError } from '../../src/errors.js';
import { thrown } from '../fakes/thrown.js';

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-baseline-text-'));
  file = path.join(dir, 'old.md');
  await writeFile(file, '  Fill PDF forms. Use for PDFs.\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('looksLikePath', () => {
  it('one word with a slash, or a .md/.txt ending, is meant as a file', () => {
    expect(looksLikePath('skills/old/SKILL')).toBe(true);
    expect(looksLikePath('C:\\old')).toBe(true);
    expect(looksLikePath('old description.TXT')).toBe(true);
  });

  it('a description with spaces may hold a slash; a multi-line text is never a path', () => {
    expect(looksLikePath('Handles PDF/DOCX files')).toBe(false);
    expect(looksLikePath('a/b\nc.md')).toBe(false);
    expect(looksLikePath('Fill forms.')).toBe(false);
  });
});

describe('baselineText', () => {
  it('no flag: no baseline; text: the text itself', async () => {
    expect(await baselineText(undefined, undefined)).toBeUndefined();
    expect(await baselineText('Fill forms.', undefined)).toEqual({ text: 'Fill forms.', from: 'text' });
  });

  it('a file, through either flag, is read and trimmed', async () => {
    const expected = { text: 'Fill PDF forms. Use for PDFs.', from: 'file', file };
    expect(await baselineText(undefined, file)).toEqual(expected);
    expect(await baselineText(file, undefined)).toEqual(expected);
  });

  it('both flags at once is a usage error saying to keep one', async () => {
    const error = await thrown(baselineText('x', file));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('Fix: keep one of them');
  });

  it('--baseline-description-file of a missing file or a folder is an input error naming it', async () => {
    const missing = (await thrown(baselineText(undefined, path.join(dir, 'nope.md')))) as InputError;
    expect(missing).toBeInstanceOf(InputError);
    expect(missing.location.file).toBe(path.join(dir, 'nope.md'));
    expect(missing.problem).toBe('does not exist (--baseline-description-file)');
    const folder = (await thrown(baselineText(undefined, dir))) as InputError;
    expect(folder.problem).toBe('is a folder, not a file (--baseline-description-file)');
  });

  it('a value that looks like a missing file, or names a folder, is refused rather than measured as text', async () => {
    const typo = (await thrown(baselineText('skills/old.md', undefined))) as UsageError;
    expect(typo).toBeInstanceOf(UsageError);
    expect(typo.message).toMatch(
      /^--baseline-description: "skills\/old\.md" looks like a file name, but no such file exists; it would be measured as a text of 13 bytes\. Fix: /,
    );
    const folder = (await thrown(baselineText(dir, undefined))) as UsageError;
    expect(folder.message).toContain('but it is a folder');
  });
});

describe('baselineLine', () => {
  it('says where the text came from and its size in UTF-8 bytes', () => {
    expect(baselineLine({ text: 'é', from: 'text' })).toBe(
      'baseline: the text given to --baseline-description (2 bytes), not a file',
    );
    expect(baselineLine({ text: 'abc', from: 'file', file: 'old.md' })).toBe(
      'baseline: the text of the file old.md (3 bytes)',
    );
  });
});
