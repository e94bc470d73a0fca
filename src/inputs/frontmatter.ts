/**
 * SKILL.md's YAML frontmatter: found between its `---` lines, parsed with line numbers kept, and
 * repaired the way Claude Code repairs it when strict YAML fails. Every error names the file line.
 */
import { type Document, isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { inputFailure, Problems } from './problems.js';
import { yamlErrorLine, yamlFix, yamlProblem } from './yaml-errors.js';

/** The text between the opening `---` on line 1 and the next `---` line. */
export function splitFrontmatter(text: string, file: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    throw inputFailure(
      { file, line: 1 },
      'has no YAML frontmatter (the file must start with a --- line)',
      'start the file with ---, then "name:" and "description:" lines, then a closing ---',
    );
  }
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (close === -1) {
    throw inputFailure(
      { file, line: 1 },
      'the frontmatter opened by --- on line 1 is never closed',
      'add a line holding only --- after the last frontmatter key',
    );
  }
  return lines.slice(1, close).join('\n');
}

/**
 * The most keys a frontmatter may hold. The YAML library checks each key against every earlier
 * one, so its time grows with the square of the count: 10,000 keys took 6 s here, 90,000 (889 KB,
 * under the file limit) almost 5 minutes. A skill's frontmatter holds a handful. Counted before
 * parsing, as the colons that end a key (`key:` then a space or the line's end), which also counts
 * a flow mapping's keys and never undercounts.
 */
export const MAX_FRONTMATTER_KEYS = 500;

/** Refuses a frontmatter past MAX_FRONTMATTER_KEYS before the YAML library sees it. */
export function checkFrontmatterSize(text: string, file: string): void {
  const keys = text.match(/:(?=[ \t]|$)/gm)?.length ?? 0;
  if (keys <= MAX_FRONTMATTER_KEYS) return;
  throw inputFailure(
    { file, line: 1 },
    `the frontmatter holds about ${keys} keys, more than the ${MAX_FRONTMATTER_KEYS} skilltrigger reads (a skill's frontmatter holds a handful: name, description and a few more)`,
    'keep name, description and the fields your agent reads in the frontmatter; move the rest into the body or a file the skill points to',
  );
}

export interface ParsedFrontmatter {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

function parseYaml(text: string): ParsedFrontmatter {
  const lineCounter = new LineCounter();
  // Claude Code's YAML reader applies merge keys (`<<: *defaults`): observed with the listing probe.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  return { doc, lineCounter };
}

/**
 * Parses the frontmatter. When strict YAML fails, tries the two repairs Claude Code itself applies
 * before giving up (tab indentation, and an unquoted ": " inside a one-line value, which the CLI
 * was observed to accept in the listing of the pinned CLI). If the repaired text parses, the skill loads
 * as Claude Code would load it, with a warning; otherwise every YAML error is reported.
 */
export function parseFrontmatter(
  text: string,
  file: string,
  fileLine: (n: number) => number,
  warnings: string[],
): ParsedFrontmatter {
  checkFrontmatterSize(text, file);
  const strict = parseYaml(text);
  if (strict.doc.errors.length === 0) return strict;

  const repair = repairFrontmatter(text);
  if (repair.changedLines.length > 0) {
    const repaired = parseYaml(repair.text);
    if (repaired.doc.errors.length === 0) {
      const lines = repair.changedLines.map(fileLine).join(', ');
      warnings.push(
        `frontmatter line(s) ${lines} are not valid YAML (an unquoted ": " inside a value, or tab indentation); Claude Code repairs them, other tools (skill validators, GitHub's preview) reject them: quote the value or indent with spaces`,
      );
      return repaired;
    }
  }

  const problems = new Problems();
  for (const error of strict.doc.errors) {
    const line = fileLine(yamlErrorLine(error, text, strict.lineCounter));
    problems.add(
      { file, line },
      yamlProblem(error, 'the frontmatter is not valid YAML'),
      yamlFix(error.code),
    );
  }
  problems.throwIfAny();
  return strict;
}

function repairFrontmatter(text: string): { text: string; changedLines: number[] } {
  const changedLines: number[] = [];
  const lines = text.split('\n').map((line, i) => {
    let out = line.replace(/^\t+/, (tabs) => '  '.repeat(tabs.length));
    const m = /^([A-Za-z0-9_-]+):[ \t]+(.*\S)\s*$/.exec(out);
    if (m?.[1] && m[2] && !/^["'|>[{&*!#]/.test(m[2]) && m[2].includes(': ')) {
      out = `${m[1]}: ${JSON.stringify(m[2])}`;
    }
    if (out !== line) changedLines.push(i + 1);
    return out;
  });
  return { text: lines.join('\n'), changedLines };
}

/** The same-line comment after a key's plain value (`key: value # comment`), if any. */
export function valueComment(doc: Document.Parsed, key: string): string | undefined {
  if (!isMap(doc.contents)) return undefined;
  for (const pair of doc.contents.items) {
    if (isScalar(pair.key) && pair.key.value === key && isScalar(pair.value)) {
      const comment = pair.value.comment;
      return typeof comment === 'string' && comment.trim() !== '' ? comment : undefined;
    }
  }
  return undefined;
}
