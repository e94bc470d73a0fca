import path from 'node:path';
import { readAgentvYaml } from './eval-agentv.js';
import { readCsv } from './eval-csv.js';
import { type Candidate, entryLabel } from './eval-entry.js';
import { readSkillCreatorJson } from './eval-json.js';
import { inputFailure, Problems, quote } from './problems.js';
import type { ContextRef, EvalContext, EvalFormat, EvalItem, EvalSet } from './types.js';

const FORMAT_BY_EXTENSION: Record<string, EvalFormat> = {
  '.json': 'skill-creator-json',
  '.yaml': 'agentv-yaml',
  '.yml': 'agentv-yaml',
  '.csv': 'csv',
};

/**
 * Ids appear in terminal output, Markdown tables and PR comments; a narrow alphabet keeps them
 * unambiguous there without escaping (no spaces, no Markdown or HTML characters).
 */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/**
 * Parses an eval set: skill-creator JSON (`.json`), AgentV EVAL.yaml (`.yaml`/`.yml`, only the
 * tests whose trigger assertion names `skillName`) or CSV (`.csv`); another extension is recognised
 * by its content. Every defect is collected and thrown together as `InputErrors`, each naming the
 * file, the entry (position, id, line) and the fix. The text comes from `loadEvalSet`
 * (src/inputs/files.ts), or from a blob the Action reads from the base branch.
 */
export function parseEvalSet(text: string, file: string, skillName: string, format?: EvalFormat): EvalSet {
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') {
    throw inputFailure(
      { file },
      'the eval set is empty',
      'add prompts that should and should not load the skill',
    );
  }
  const chosen = format ?? formatOf(file, source);
  const problems = new Problems();
  const warnings: string[] = [];
  let candidates: Candidate[];
  switch (chosen) {
    case 'skill-creator-json':
      candidates = readSkillCreatorJson(source, file, problems);
      break;
    case 'agentv-yaml':
      candidates = readAgentvYaml(source, file, skillName, problems, warnings);
      break;
    case 'csv':
      candidates = readCsv(source, file, problems);
      break;
  }
  const items = checkSet(candidates, file, problems, skillName);
  problems.throwIfAny();
  return { file, format: chosen, items, ...(warnings.length > 0 ? { warnings } : {}) };
}

function formatOf(file: string, text: string): EvalFormat {
  const byExtension = FORMAT_BY_EXTENSION[path.extname(file).toLowerCase()];
  if (byExtension) return byExtension;
  const start = text.trimStart();
  if (start.startsWith('[') || start.startsWith('{')) return 'skill-creator-json';
  if (/^tests\s*:/m.test(text)) return 'agentv-yaml';
  const firstLine = start.split('\n', 1)[0] ?? '';
  if (firstLine.includes(',') && /\bshould_trigger\b/i.test(firstLine)) return 'csv';
  throw inputFailure(
    { file },
    `cannot tell which eval-set format this is (extension ${quote(path.extname(file) || 'none')}, and the content is not a JSON array, an EVAL.yaml with tests:, or a CSV with a should_trigger header)`,
    'name the file .json (skill-creator), .yaml (AgentV EVAL.yaml) or .csv (id,should_trigger,prompt)',
  );
}

/**
 * A prompt that starts with `/<skill>` (the `--stub skill` stub) or `/<skill>-stub-…` (the command
 * stub) is expanded by Claude Code itself into the stub's body before the model sees it
 * (docs/claude-cli.md §2): the model never chooses, so the run measures nothing.
 */
function slashInvocation(query: string, skillName: string): string | undefined {
  if (skillName === '' || !query.startsWith('/')) return undefined;
  const word = query.slice(1).split(/\s/, 1)[0] ?? '';
  return word === skillName || word.startsWith(`${skillName}-stub-`) ? `/${word}` : undefined;
}

/** The rules every format shares: ids, duplicate prompts, and a set that can measure both rates. */
function checkSet(candidates: Candidate[], file: string, problems: Problems, skillName: string): EvalItem[] {
  const byId = new Map<string, Candidate>();
  const byQuery = new Map<string, Candidate>();
  const items: EvalItem[] = [];
  for (const c of candidates) {
    const id = checkId(c, byId, problems);
    checkQuery(c, byQuery, skillName, problems);
    if (c.query !== undefined && c.shouldTrigger !== undefined) {
      items.push({
        id,
        query: c.query,
        shouldTrigger: c.shouldTrigger,
        extra: c.extra,
        ...(c.context === undefined ? {} : { context: evalContextOf(c.context) }),
      });
    }
  }
  if (candidates.length === 0) {
    if (problems.count === 0) {
      problems.add(
        { file },
        'the eval set has no entries',
        'add prompts that should and should not load the skill',
      );
    }
    return items;
  }
  checkBothClasses(candidates, file, problems);
  return items;
}

/** The entry's id (its own, or `q<position>`), checked: a plain identifier, and no other entry's. */
function checkId(c: Candidate, byId: Map<string, Candidate>, problems: Problems): string {
  const own = c.id !== undefined;
  const id = c.id ?? `q${c.position}`;
  if (own && !SAFE_ID.test(id)) {
    problems.add(
      c.location,
      `id ${quote(id)} is not a plain identifier`,
      'use 1–64 letters, digits, ".", "_", "-" or ":", starting with a letter or digit',
    );
  }
  const sameId = byId.get(id);
  if (sameId && !own) {
    problems.add(
      c.location,
      `has no id, and the one it would get, ${quote(id)}, is already the id of ${describeWhere(sameId)}`,
      `give this entry an id, or rename the id of ${entryLabel(sameId.position)}`,
    );
  } else if (sameId && sameId.id === undefined) {
    problems.add(
      c.location,
      `id ${quote(id)} is also the id ${entryLabel(sameId.position)} gets because it has none`,
      `rename this id, or give ${entryLabel(sameId.position)} an id`,
    );
  } else if (sameId) {
    problems.add(
      c.location,
      `id ${quote(id)} is also the id of ${describeWhere(sameId)}`,
      'give each entry its own id',
    );
  } else {
    byId.set(id, c);
  }
  return id;
}

/** The entry's prompt: not a slash invocation of the skill, and not another entry's prompt. */
function checkQuery(
  c: Candidate,
  byQuery: Map<string, Candidate>,
  skillName: string,
  problems: Problems,
): void {
  if (c.query === undefined) return;
  const slash = slashInvocation(c.query, skillName);
  if (slash !== undefined) {
    problems.add(
      c.location,
      `the prompt starts with ${quote(slash)}, which Claude Code expands into the skill itself before the model sees it, so the model never chooses and the run measures nothing`,
      `drop the leading slash and write the request as a user would put it`,
    );
  }
  const sameQuery = byQuery.get(c.query);
  if (sameQuery) {
    problems.add(
      c.location,
      `the same prompt as ${describeWhere(sameQuery)}: ${quote(c.query)}`,
      'delete one of the two or reword it; a repeated prompt counts twice in the rates',
    );
  } else {
    byQuery.set(c.query, c);
  }
}

/** A set with no positive or no negative cannot measure one of the two rates. */
function checkBothClasses(candidates: Candidate[], file: string, problems: Problems): void {
  // Counted only when every entry's should_trigger was readable: otherwise "no negatives" may
  // just be an unreadable false, and the entry's own error already says so.
  if (!candidates.every((c) => c.shouldTrigger !== undefined)) return;
  const positives = candidates.filter((c) => c.shouldTrigger).length;
  if (positives === 0) {
    problems.add(
      { file },
      `no entry has should_trigger true (${allOf(candidates.length, 'negative')}), so "positives triggered" cannot be measured`,
      'add prompts that should load the skill, with should_trigger true',
    );
  }
  if (positives === candidates.length) {
    problems.add(
      { file },
      `no entry has should_trigger false (${allOf(candidates.length, 'positive')}), so "negatives fired" cannot be measured`,
      'add near-miss prompts that should not load the skill, with should_trigger false',
    );
  }
}

function evalContextOf(ref: ContextRef): EvalContext {
  return ref.kind === 'file' ? { file: ref.path } : { turns: ref.turns };
}

function allOf(count: number, kind: string): string {
  return count === 1 ? `the only entry is a ${kind}` : `all ${count} are ${kind}s`;
}

function describeWhere(c: Candidate): string {
  return `${c.location.entry ?? 'another entry'}${c.location.line !== undefined ? ` (line ${c.location.line})` : ''}`;
}
