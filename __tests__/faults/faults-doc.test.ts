import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BAD_INPUT_CASES } from './bad-input-cases.js';
import { FAULT_CASES } from './cases.js';

/**
 * docs/faults.md holds two tables generated from the suite's own case lists (cases.ts,
 * bad-input-cases.ts), between marker comments. This test fails when the doc and the lists differ,
 * and when a fault case has no test naming it, so the doc cannot claim an outcome no test checks.
 * Regenerate the tables with: UPDATE_FAULTS_DOC=1 npx vitest run __tests__/faults/faults-doc.test.ts
 */

const DOC = new URL('../../docs/faults.md', import.meta.url);
const HERE = new URL('./', import.meta.url);

/** Markdown table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A code span that survives backticks inside the text. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${cell(text)}${pad}${fence}`;
}

function faultTable(): string {
  const rows = FAULT_CASES.map(
    (c) => `| ${cell(c.fault)} | ${cell(c.injected)} | ${cell(c.outcome)} | ${c.layer} | \`${c.id}\` |`,
  );
  return [
    '| Fault | How the suite injects it | Outcome | Layer | Case |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function badInputTable(): string {
  const rows = BAD_INPUT_CASES.map(
    (c) => `| ${c.area} | ${cell(c.what)} | ${code(c.error)} | ${c.exit} | \`${c.id}\` |`,
  );
  return [
    '| Input | Case | Error (fragment of stderr) | Exit | Case id |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const markers = (name: string) =>
  new RegExp(`<!-- ${name}:start -->\\n?([\\s\\S]*?)\\n?<!-- ${name}:end -->`);

function between(doc: string, name: string): string | undefined {
  return markers(name).exec(doc)?.[1];
}

/**
 * A table as its cells: Biome pads Markdown tables into aligned columns, so the comparison ignores
 * the padding and the width of the `---` row.
 */
function cells(table: string | undefined): string[][] {
  return (table ?? '').split('\n').map((row) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .map((c) => (/^:?-+:?$/.test(c) ? '---' : c)),
  );
}

function replaceBetween(doc: string, name: string, body: string): string {
  return doc.replace(markers(name), () => `<!-- ${name}:start -->\n${body}\n<!-- ${name}:end -->`);
}

describe('docs/faults.md', () => {
  it('every fault case is covered by a test that names it', () => {
    const sources = readdirSync(HERE)
      .filter((f) => f.endsWith('.test.ts') && f !== 'faults-doc.test.ts')
      .map((f) => readFileSync(new URL(f, HERE), 'utf8'))
      .join('\n');
    const uncovered = FAULT_CASES.filter((c) => !sources.includes(`'${c.id}'`)).map((c) => c.id);
    expect(uncovered).toEqual([]);
    expect(new Set(FAULT_CASES.map((c) => c.id)).size).toBe(FAULT_CASES.length);
  });

  it('holds the fault and bad-input tables exactly as the case lists give them', () => {
    let doc = readFileSync(DOC, 'utf8');
    if (process.env.UPDATE_FAULTS_DOC === '1') {
      doc = replaceBetween(
        replaceBetween(doc, 'fault-table', faultTable()),
        'bad-input-table',
        badInputTable(),
      );
      writeFileSync(DOC, doc);
      const biome = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));
      execFileSync(biome, ['format', '--write', fileURLToPath(DOC)], { stdio: 'ignore' });
      doc = readFileSync(DOC, 'utf8');
    }
    expect(
      cells(between(doc, 'fault-table')),
      'fault table out of date: run with UPDATE_FAULTS_DOC=1',
    ).toEqual(cells(faultTable()));
    expect(
      cells(between(doc, 'bad-input-table')),
      'bad-input table out of date: run with UPDATE_FAULTS_DOC=1',
    ).toEqual(cells(badInputTable()));
  });
});
