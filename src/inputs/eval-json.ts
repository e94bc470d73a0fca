import { messageOf } from '../errors.js';
import { checkAnnotations } from './annotations.js';
import { takeContext } from './eval-context.js';
import { type Candidate, candidateOf, entryLabel, readQuery, readTypedShouldTrigger } from './eval-entry.js';
import { entryLines, jsonErrorPosition } from './json-lines.js';
import { describeValue, isRecord, type Problems } from './problems.js';

const ENTRY_SHAPE = '{"query": "…", "should_trigger": true}';

/**
 * skill-creator's trigger eval set: a JSON array of `{query, should_trigger, ...extra}`. Every
 * other field is kept in `extra`; a string `id` becomes the item's id.
 */
export function readSkillCreatorJson(text: string, file: string, problems: Problems): Candidate[] {
  const data = parseArray(text, file, problems);
  if (data === undefined) return [];
  const lines = entryLines(text);
  duplicateKeyProblems(text, lines, file, problems);
  const candidates: Candidate[] = [];
  data.forEach((entry: unknown, index) => {
    const candidate = readEntry(entry, index + 1, lines[index], file, problems);
    if (candidate) candidates.push(candidate);
  });
  return candidates;
}

/** The file's top-level array; invalid JSON or another shape is a thrown problem. */
function parseArray(text: string, file: string, problems: Problems): unknown[] | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = messageOf(error);
    const at = jsonErrorPosition(message, text);
    problems.add(
      { file, ...(at ? { line: at.line } : {}) },
      `is not valid JSON: ${message}`,
      at
        ? `fix the syntax at line ${at.line}, column ${at.column} (a trailing comma, a missing comma or an unescaped quote are the usual causes)`
        : 'check the file with a JSON validator',
    );
    problems.throwIfAny();
  }
  if (!Array.isArray(data)) {
    problems.add({ file, line: 1 }, ...topLevelProblem(data));
    problems.throwIfAny();
    return undefined;
  }
  return data;
}

/** A key written twice in one object: a JSON reader keeps the last and drops the other without a word. */
function duplicateKeyProblems(
  text: string,
  lines: readonly (number | undefined)[],
  file: string,
  problems: Problems,
): void {
  for (const dup of duplicateKeys(text)) {
    // The entry a line belongs to: the last one that starts at or before it.
    const index = lines.reduce<number | undefined>(
      (found, start, i) => (start !== undefined && start <= dup.line ? i : found),
      undefined,
    );
    problems.add(
      {
        file,
        line: dup.line,
        ...(index === undefined || dup.depth < 2 ? {} : { entry: entryLabel(index + 1) }),
      },
      `has the key ${JSON.stringify(dup.key)} twice (first at line ${dup.firstLine}); a JSON reader keeps only the last one and silently drops the other`,
      'keep one of the two',
    );
  }
}

/** One entry as a candidate, or undefined when it is not an object. */
function readEntry(
  entry: unknown,
  position: number,
  line: number | undefined,
  file: string,
  problems: Problems,
): Candidate | undefined {
  const at = (id?: string) => ({
    file,
    ...(line !== undefined ? { line } : {}),
    entry: entryLabel(position, id),
  });
  if (!isRecord(entry)) {
    problems.add(at(), `is ${describeValue(entry)}, not an object`, `write each entry as ${ENTRY_SHAPE}`);
    return undefined;
  }
  const { query, should_trigger, ...rest } = entry;
  const id = typeof entry.id === 'string' ? entry.id : undefined;
  const extra: Record<string, unknown> = { ...rest };
  if (id !== undefined) delete extra.id;
  const location = at(id);

  const renamed = query === undefined ? ['prompt', 'input', 'question'].find((k) => k in entry) : undefined;
  const text = readQuery(
    query,
    'query',
    location,
    problems,
    renamed ? `rename "${renamed}" to "query"` : undefined,
  );
  let shouldTrigger: boolean | undefined;
  if (should_trigger === undefined && 'shouldTrigger' in entry) {
    // Accepting the camelCase key would make the file mean something else to skill-creator.
    problems.add(location, 'uses "shouldTrigger"; the key is "should_trigger"', 'rename the key');
  } else {
    shouldTrigger = readTypedShouldTrigger(should_trigger, location, problems);
  }
  const context = takeContext(extra, location, problems, true);
  checkAnnotations(extra, location, problems, true);
  return candidateOf(position, location, { id, query: text, shouldTrigger }, extra, context);
}

function topLevelProblem(data: unknown): [string, string] {
  if (isRecord(data) && Array.isArray(data.evals)) {
    // skill-creator's evals/evals.json holds output-quality evals, not trigger queries.
    return [
      'looks like skill-creator\'s evals/evals.json ({"skill_name", "evals": […]}), which holds output-quality evals, not trigger queries',
      `pass a trigger eval set: a JSON array of ${ENTRY_SHAPE} entries`,
    ];
  }
  if (isRecord(data) && Array.isArray(data.tests)) {
    return [
      'holds an object with "tests", not the JSON array of entries skilltrigger reads',
      `write a JSON array of ${ENTRY_SHAPE} entries, or an AgentV EVAL.yaml saved with a .yaml extension`,
    ];
  }
  const keys = isRecord(data) ? ` with keys ${Object.keys(data).slice(0, 5).join(', ') || '(none)'}` : '';
  return [`must be a JSON array of entries, got ${describeValue(data)}${keys}`, `write [${ENTRY_SHAPE}, …]`];
}

interface DuplicateKey {
  key: string;
  line: number;
  firstLine: number;
  /** Nesting depth of the object (1: the top level, 2: an entry of the top-level array). */
  depth: number;
}

/**
 * Keys that appear twice in one object. `JSON.parse` keeps the last without a word, so
 * `"should_trigger": true, "should_trigger": false` would flip a label; YAML refuses the same.
 * Scans text that JSON.parse already accepted, so only strings and nesting need care.
 */
function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: (Map<string, number> | null)[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    else if (ch === '{') stack.push(new Map());
    else if (ch === '[') stack.push(null);
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const raw = text.slice(i, end + 1);
      let after = end + 1;
      while (after < text.length && /\s/.test(text[after] ?? '')) after++;
      const keys = stack.at(-1);
      if (text[after] === ':' && keys) {
        const key = String(JSON.parse(raw));
        const first = keys.get(key);
        if (first === undefined) keys.set(key, line);
        else found.push({ key, line, firstLine: first, depth: stack.length });
      }
      i = end;
    }
  }
  return found;
}
