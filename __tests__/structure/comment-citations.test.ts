import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A comment in src/ or __tests__/ carries its reason, or points at a document a newcomer can
 * open: a file of this repository (docs/…), and where it names a section (`docs/claude-cli.md §6`),
 * a section that heading exists. It never cites an issue number (history belongs in commit
 * messages) nor a document kept outside the repository.
 */
const REPO = resolve(import.meta.dirname, '../..');
const SRC = join(REPO, 'src');
const TESTS = join(REPO, '__tests__');

/** Documents that live outside the repository, by the names comments used to cite them. */
const OUTSIDE =
  /\bSPEC\b|\bSTYLE §|claude-cli-facts|codex-facts|\banchors(?:\.md)? §|\bseeds\/|\.\.\/shared|\breference\//;
const ISSUE = /\b(?:issues?|PR|pull request)[\s-]*#?\d+|\(#\d+\b/i;
/**
 * A path to a Markdown file of the repository (`docs/cost.md`) or above it (a `../` path), with
 * the section it names, if any. `commands/sub/name.md` is a layout, not a citation.
 */
const DOC =
  /((?:\.\.\/)+[\w./-]+\.md|(?:docs|examples|schema|scripts|src|__tests__)\/[\w./-]+\.md)(?:\s+§(\d+))?/g;

/** The comment lines of a TypeScript file, with their line numbers. */
function commentLines(text: string): { line: number; text: string }[] {
  const found: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (inBlock || line.startsWith('/*')) {
      found.push({ line: i + 1, text: line });
      inBlock = !line.includes('*/');
    } else if (line.startsWith('//')) found.push({ line: i + 1, text: line });
  });
  return found;
}

/** What is wrong with one comment line, if anything. */
function problems(comment: string): string[] {
  const found: string[] = [];
  if (OUTSIDE.test(comment)) found.push('cites a document outside the repository');
  if (ISSUE.test(comment)) found.push('cites an issue number');
  for (const m of comment.matchAll(DOC)) {
    const [, doc = '', section] = m;
    const file = join(REPO, doc);
    if (!existsSync(file)) {
      found.push(`cites ${doc}, which is not in the repository`);
      continue;
    }
    if (section === undefined) continue;
    const heading = new RegExp(`^#+\\s+${section}\\.`, 'm');
    if (!heading.test(readFileSync(file, 'utf8')))
      found.push(`cites ${doc} §${section}, which has no such section`);
  }
  if (/§/.test(comment.replace(DOC, '')))
    found.push('cites a section (§) without the document it belongs to');
  return found;
}

describe('comments in src/ and __tests__/', () => {
  it('sees the citations it forbids, and lets a pointer into docs/ pass', () => {
    expect(problems(' * The decision rule (SPEC §2.2, corrected by claude-cli-facts.md §0):')).toEqual([
      'cites a document outside the repository',
      'cites a section (§) without the document it belongs to',
    ]);
    expect(problems('// Measured (issue 12): ~160 ms less')).toEqual(['cites an issue number']);
    expect(problems(' * why it lingered (issue #15, item 7)')).toEqual(['cites an issue number']);
    expect(problems(" * The report's issue-14 fields")).toEqual(['cites an issue number']);
    expect(problems(' * Keys (anchors §10; ≤ 512 characters)')).toHaveLength(2);
    expect(problems(' * as docs/nowhere.md says')).toEqual([
      'cites docs/nowhere.md, which is not in the repository',
    ]);
    expect(problems(' * (docs/claude-cli.md §99)')).toEqual([
      'cites docs/claude-cli.md §99, which has no such section',
    ]);
    expect(problems(' * a hung API (docs/claude-cli.md §6) must not hang a gate')).toEqual([]);
    expect(problems(' * the reasoning is in docs/statistics.md; a SKILL.md is read as is')).toEqual([]);
    expect(problems(' * `commands/sub/name.md` is listed as `plugin:sub:name`')).toEqual([]);
    expect(problems(' * see ../../shared/notes.md')).toHaveLength(2);
    expect(
      commentLines('const a = 1; // not a comment line\n/**\n * inside\n */\nconst b = 2;\n// own line'),
    ).toEqual([
      { line: 2, text: '/**' },
      { line: 3, text: '* inside' },
      { line: 4, text: '*/' },
      { line: 6, text: '// own line' },
    ]);
  });

  it.each([
    ['src/', SRC],
    ['__tests__/', TESTS],
  ])('in %s cite only documents of this repository, and no issue number', (_name, root) => {
    const found: string[] = [];
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const full = join(root, file);
      for (const { line, text } of commentLines(readFileSync(full, 'utf8')))
        for (const problem of problems(text))
          found.push(`${relative(REPO, full)}:${line}: ${problem}: ${text}`);
    }
    expect(found).toEqual([]);
  });
});
