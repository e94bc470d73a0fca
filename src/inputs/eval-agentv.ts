import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { InputLocation } from '../errors.js';
import { checkAnnotations } from './annotations.js';
import { triggerVerdicts } from './eval-agentv-assertions.js';
import { takeContext } from './eval-context.js';
import { type Candidate, candidateOf, entryLabel, readQuery } from './eval-entry.js';
import { describeValue, isRecord, type Problems, quote } from './problems.js';
import { duplicateKeys, LINEAR_KEYS, yamlErrorLine, yamlFix, yamlProblem, yamlValue } from './yaml-errors.js';

/**
 * AgentV's EVAL.yaml: `tests[]` with `id`, `input` and `assertions` (or `assert`). A test belongs
 * to this skill when one of its trigger assertions names the skill exactly:
 * `{type: skill-trigger, skill, should_trigger (default true)}`, or the forms that replaced it,
 * `{type: skill-used | not-skill-used, value: name}`. Tests for other skills are left out, the way
 * AgentV's transpiler routes each test to its skill's file.
 */
export function readAgentvYaml(
  text: string,
  file: string,
  skillName: string,
  problems: Problems,
  warnings: string[],
): Candidate[] {
  const parsed = parseTests(text, file, problems);
  if (parsed === undefined) return [];
  const namesFound = new Set<string>();
  const candidates: Candidate[] = [];
  const context: TestContext = { file, skillName, problems, warnings, namesFound };
  parsed.tests.forEach((test: unknown, index) => {
    const candidate = readTest(test, index + 1, parsed.lines[index], context);
    if (candidate) candidates.push(candidate);
  });
  if (candidates.length === 0) noTestOfSkill(file, skillName, namesFound, problems);
  return candidates;
}

/** What reading one test needs besides the test: the file, the skill, where problems go. */
interface TestContext {
  file: string;
  skillName: string;
  problems: Problems;
  warnings: string[];
  /** Every skill name a trigger assertion mentions, for the "names it did find" message. */
  namesFound: Set<string>;
}

/**
 * The file's `tests` list and the line each test starts on; undefined (or a throw) when the file
 * is not valid YAML or has no `tests:` list.
 */
function parseTests(
  text: string,
  file: string,
  problems: Problems,
): { tests: unknown[]; lines: (number | undefined)[] } | undefined {
  const lineCounter = new LineCounter();
  // Merge keys (`<<: *defaults`) are applied, as AgentV's own loader does: left to YAML 1.2 they
  // would be a key named "<<" and the values they carry (a split, a should_trigger) would be lost.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, ...LINEAR_KEYS });
  for (const error of [...doc.errors, ...duplicateKeys(doc)]) {
    problems.add(
      { file, line: yamlErrorLine(error, text, lineCounter) },
      yamlProblem(error, 'is not valid YAML'),
      yamlFix(error.code),
    );
  }
  problems.throwIfAny();

  const data: unknown = yamlValue(doc, { file });
  if (!isRecord(data) || !('tests' in data)) {
    problems.add(
      { file, line: 1 },
      `must be an AgentV EVAL.yaml, a mapping with a "tests:" list; got ${describeValue(data)}${isRecord(data) ? ` with keys ${Object.keys(data).slice(0, 5).join(', ') || '(none)'}` : ''}`,
      'write "tests:" and under it one "- id: …, input: …, assertions: [{type: skill-trigger, skill: …, should_trigger: true}]" per prompt; a plain list of {query, should_trigger} belongs in a .json file',
    );
    problems.throwIfAny();
    return undefined;
  }
  if (!Array.isArray(data.tests)) {
    problems.add(
      { file, line: keyLine(doc.contents, 'tests', lineCounter) ?? 1 },
      `"tests" must be a list, got ${describeValue(data.tests)}`,
      'write each test on its own "- id: …" line under "tests:"',
    );
    problems.throwIfAny();
    return undefined;
  }
  const testsNode = isMap(doc.contents) ? doc.contents.get('tests', true) : undefined;
  const lines = isSeq(testsNode)
    ? testsNode.items.map((n) => {
        const range = (n as { range?: [number, number, number] | null } | null)?.range;
        return range ? lineCounter.linePos(range[0]).line : undefined;
      })
    : [];
  return { tests: data.tests, lines };
}

/** One test as a candidate, or undefined when it is not a test of this skill or not a mapping. */
function readTest(
  test: unknown,
  position: number,
  line: number | undefined,
  { file, skillName, problems, warnings, namesFound }: TestContext,
): Candidate | undefined {
  const where = (id?: string): InputLocation => ({
    file,
    ...(line !== undefined ? { line } : {}),
    entry: entryLabel(position, id),
  });
  if (!isRecord(test)) {
    problems.add(
      where(),
      `is ${describeValue(test)}, not a test`,
      'write each test as a mapping with id, input and assertions',
    );
    return undefined;
  }
  const id =
    typeof test.id === 'string' ? test.id : typeof test.id === 'number' ? String(test.id) : undefined;
  const location = where(id);

  const verdicts = triggerVerdicts(test, skillName, location, problems, namesFound);
  if (verdicts.length === 0) return undefined; // not a test of this skill
  if (test.id !== undefined && id === undefined) {
    problems.add(
      location,
      `id must be text, got ${describeValue(test.id)}`,
      'write the id as a short word, e.g. id: pdf-merge',
    );
  }
  const shouldTrigger = agreedVerdict(verdicts, skillName, location, problems);

  const vars = isRecord(test.vars) ? test.vars : undefined;
  const rawInput = test.input !== undefined ? test.input : vars?.input;
  const extracted = extractInput(rawInput, location, problems, warnings);
  const query = extracted === undefined ? undefined : readQuery(extracted.value, 'input', location, problems);

  const extra = extraFields(test, vars);
  const context = takeContext(extra, location, problems, true);
  checkAnnotations(extra, location, problems, true);
  return candidateOf(position, location, { id, query, shouldTrigger }, extra, context);
}

/**
 * The test's should_trigger when all its trigger assertions for the skill are readable and agree;
 * undefined otherwise (a disagreement is reported here, an unreadable one already was).
 */
function agreedVerdict(
  verdicts: (boolean | undefined)[],
  skillName: string,
  location: InputLocation,
  problems: Problems,
): boolean | undefined {
  const decided = verdicts.filter((v): v is boolean => v !== undefined);
  if (decided.length !== verdicts.length) return undefined;
  if (decided.every((v) => v === decided[0])) return decided[0];
  problems.add(
    location,
    `its assertions disagree about whether "${skillName}" should trigger`,
    'keep one trigger assertion for this skill per test',
  );
  return undefined;
}

/** The test's fields besides its id, input and assertions (and `vars` less its input), kept as extras. */
function extraFields(
  test: Record<string, unknown>,
  vars: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const { id: _id, input: _input, assertions: _a, assert: _b, vars: _vars, ...rest } = test;
  const extra: Record<string, unknown> = { ...rest };
  if (vars) {
    const { input: _vi, ...otherVars } = vars;
    if (Object.keys(otherVars).length > 0) extra.vars = otherVars;
  }
  return extra;
}

/** No test names the skill: says which skills the trigger assertions do name, and the fix. */
function noTestOfSkill(file: string, skillName: string, namesFound: Set<string>, problems: Problems): void {
  const found = [...namesFound].sort();
  problems.add(
    { file },
    `no test has a trigger assertion naming the skill ${quote(skillName)} (${found.length > 0 ? `the trigger assertions name: ${found.map((n) => quote(n)).join(', ')}` : 'the file has no skill-trigger, skill-used or not-skill-used assertions'})`,
    found.length > 0
      ? `measure one of those skills, or add "{type: skill-trigger, skill: ${skillName}, should_trigger: true}" to the tests for this one (names must match exactly)`
      : `add "{type: skill-trigger, skill: ${skillName}, should_trigger: true}" (false for a near-miss) under each test's assertions`,
  );
}

/**
 * The prompt of a test: `input` as text, or a list of messages whose last user message carries
 * the prompt (as text, or as content parts of which the text ones are joined). Returns undefined
 * when a problem was reported; `{ value: undefined }` lets the caller report a missing input.
 */
function extractInput(
  input: unknown,
  location: InputLocation,
  problems: Problems,
  warnings: string[],
): { value: unknown } | undefined {
  if (!Array.isArray(input)) return { value: input };
  const lastUser = input.filter((m) => isRecord(m) && m.role === 'user').at(-1);
  if (!isRecord(lastUser)) {
    problems.add(
      location,
      'input is a list of messages with no role: user message',
      'add {role: user, content: "…the prompt…"} as the last message',
    );
    return undefined;
  }
  const content = lastUser.content;
  if (!Array.isArray(content)) return { value: content };
  const texts: string[] = [];
  let dropped = 0;
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && part.type === 'text') {
      const t = typeof part.value === 'string' ? part.value : part.text;
      if (typeof t === 'string') texts.push(t);
    } else dropped++;
  }
  if (texts.length === 0) {
    problems.add(
      location,
      'the last user message has no text part',
      'add a {type: text, value: "…the prompt…"} part',
    );
    return undefined;
  }
  if (dropped > 0) {
    // claude -p receives only text; a file the test attaches is not there when the model decides.
    warnings.push(
      `${location.file} (${location.entry ?? ''}): ${dropped} non-text part(s) of the input are left out; the prompt is measured without them`,
    );
  }
  return { value: texts.join('\n') };
}

function keyLine(node: unknown, key: string, lineCounter: LineCounter): number | undefined {
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    if (isScalar(pair.key) && pair.key.value === key && pair.key.range) {
      return lineCounter.linePos(pair.key.range[0]).line;
    }
  }
  return undefined;
}
