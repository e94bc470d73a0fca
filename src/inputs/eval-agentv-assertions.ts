/**
 * The trigger assertions of an AgentV test: which of them name the skill, and what they say about
 * it (eval-agentv.ts reads the rest of the file).
 */
import type { InputLocation } from '../errors.js';
import { readTypedShouldTrigger } from './eval-entry.js';
import { describeValue, isRecord, type Problems } from './problems.js';

const TRIGGER_TYPES = ['skill-trigger', 'skill-used', 'not-skill-used'] as const;

/**
 * What each trigger assertion of a test says about `skillName`: true/false, or undefined when the
 * assertion names the skill but its should_trigger is unreadable (already reported). Records every
 * skill name any trigger assertion mentions, for the "names it did find" message.
 */
export function triggerVerdicts(
  test: Record<string, unknown>,
  skillName: string,
  location: InputLocation,
  problems: Problems,
  namesFound: Set<string>,
): (boolean | undefined)[] {
  const assertions: unknown[] = [];
  for (const key of ['assertions', 'assert'] as const) {
    const list = test[key];
    if (list === undefined || list === null) continue;
    if (Array.isArray(list)) assertions.push(...list);
    else
      problems.add(
        location,
        `"${key}" must be a list, got ${describeValue(list)}`,
        `write each assertion as a "- type: …" item under "${key}:"`,
      );
  }
  const verdicts: (boolean | undefined)[] = [];
  for (const assertion of assertions) {
    if (!isRecord(assertion) || typeof assertion.type !== 'string') continue; // e.g. a rubric string
    const type = assertion.type;
    if (!(TRIGGER_TYPES as readonly string[]).includes(type)) continue;
    if (type === 'skill-trigger') {
      if (typeof assertion.skill !== 'string') continue;
      namesFound.add(assertion.skill);
      if (assertion.skill !== skillName) continue;
      verdicts.push(
        assertion.should_trigger === undefined
          ? true // AgentV's default
          : readTypedShouldTrigger(assertion.should_trigger, location, problems),
      );
    } else {
      const names = namedSkills(assertion.value ?? assertion.skill);
      for (const n of names) namesFound.add(n);
      if (names.includes(skillName)) verdicts.push(type === 'skill-used');
    }
  }
  return verdicts;
}

/** `value: name`, `value: [a, b]`, or `value: {name: a, …}` (a pattern cannot name a skill exactly). */
function namedSkills(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(namedSkills);
  if (isRecord(value) && typeof value.name === 'string') return [value.name];
  return [];
}
