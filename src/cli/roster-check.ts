import path from 'node:path';
import type { AgentId } from '../agents/ids.js';
import { AGENTS } from '../agents/registry.js';
import { crowdListing } from '../agents/runtime.js';
import { percent } from '../format.js';
import type { Crowd } from '../inputs/roster.js';
import type { Skill } from '../inputs/types.js';

/**
 * `check --roster R`: how the agent lists each skill among the roster's crowd, read by its listing
 * probe (the real CLI against the loopback model: no model call), one line per skill: its state,
 * its size and its share of the budget, and what it would need to be whole.
 */
export async function rosterLines(
  agent: AgentId,
  crowd: Crowd,
  skills: ReadonlyArray<{ skill: Skill; listed: string }>,
  options: { bin: string; env: NodeJS.ProcessEnv; model?: string },
): Promise<string[]> {
  const lines: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  const label = AGENTS[agent].label;
  for (const { skill, listed } of skills) {
    const folder = path.basename(skill.dir);
    const got = await crowdListing(
      agent,
      crowd,
      { skillName: skill.name, description: listed, folder },
      options,
    );
    if (got.kind === 'failed') {
      lines.push(`warn  ${skill.file}: its listing under the roster could not be read (${got.reason})`);
      continue;
    }
    const { stub, budget, used, unit } = got.picture;
    // Claude Code counts characters (display width), Codex UTF-8 bytes.
    const chars = unit === 'bytes' ? Buffer.byteLength(listed) : Array.from(listed).length;
    const word = unit === 'bytes' ? 'bytes' : 'characters';
    const share =
      budget === undefined
        ? ''
        : `, ${percent(chars / budget)} of the ${n(budget)}-${word.slice(0, -1)} budget`;
    if (stub.state === 'whole') {
      lines.push(
        `ok    ${skill.file}: ${label} lists it whole under the roster (${n(chars)} ${word}${share})`,
      );
    } else if (stub.state === 'cut') {
      lines.push(
        `warn  ${skill.file}: ${label} lists it cut to ${n(stub.chars)} of ${n(Array.from(listed).length)} characters under the roster${share}`,
      );
    } else {
      // Claude Code hands out room entry by entry; Codex cuts every entry to one level.
      const free = budget === undefined || unit === 'bytes' ? undefined : budget - used;
      const need =
        free === undefined
          ? ''
          : `; it needs ${n(chars + 2 - free)} more ${word} of room to be listed whole (the crowd leaves ${n(Math.max(0, free))})`;
      lines.push(
        `warn  ${skill.file}: ${label} would list it name-only under the roster: its ${n(chars)} ${word} do not fit${share}${need}`,
      );
    }
  }
  return lines;
}
