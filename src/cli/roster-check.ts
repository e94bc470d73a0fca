import { crowdListing } from '../agents/runtime.js';
import { percent } from '../format.js';
import type { Crowd } from '../inputs/roster.js';
import type { Skill } from '../inputs/types.js';

/**
 * `check --roster R`: how Claude Code lists each skill among the roster's crowd, read by the
 * catalogue probe (the real CLI against the loopback model: no model call), one line per skill:
 * its state, its characters and their share of the budget, and what it would need to be whole.
 */
export async function rosterLines(
  crowd: Crowd,
  skills: ReadonlyArray<{ skill: Skill; listed: string }>,
  options: { claudeBin: string; env: NodeJS.ProcessEnv; model?: string },
): Promise<string[]> {
  const lines: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  for (const { skill, listed } of skills) {
    const got = await crowdListing(crowd, { skillName: skill.name, description: listed }, options);
    if (got.kind === 'failed') {
      lines.push(`warn  ${skill.file}: its listing under the roster could not be read (${got.reason})`);
      continue;
    }
    const { stub, budget, used } = got.picture;
    const chars = Array.from(listed).length;
    const share =
      budget === undefined ? '' : `, ${percent(chars / budget)} of the ${n(budget)}-character budget`;
    if (stub.state === 'whole') {
      lines.push(`ok    ${skill.file}: listed whole under the roster (${n(chars)} characters${share})`);
    } else if (stub.state === 'cut') {
      lines.push(
        `warn  ${skill.file}: listed cut to ${n(stub.chars)} of ${n(chars)} characters under the roster${share}`,
      );
    } else {
      const free = budget === undefined ? undefined : budget - used;
      const need =
        free === undefined
          ? ''
          : `; it needs ${n(chars + 2 - free)} more characters of room to be listed whole (the crowd leaves ${n(Math.max(0, free))})`;
      lines.push(
        `warn  ${skill.file}: would be listed name-only under the roster: its ${n(chars)} characters do not fit${share}${need}`,
      );
    }
  }
  return lines;
}
