/**
 * The roster file (`skilltrigger/roster`, version 1): a crowd of skills and commands pinned, so a
 * laptop and CI list the stub among the same catalogue (docs/roster.md). It is private by design:
 * it holds the names and descriptions of what is installed on a machine, and says so.
 */
import { z } from 'zod';
import { AGENT_IDS } from '../agents/ids.js';

export const ROSTER_SCHEMA_ID = 'skilltrigger/roster';
export const ROSTER_SCHEMA_VERSION = 1;
export const ROSTER_PRIVATE_NOTICE =
  'This file lists the skills and commands installed on the machine it was written on, with their descriptions: keep it private unless you mean to share them.';

const count = z.number().int().nonnegative();

export const rosterEntrySchema = z.object({
  /** A skill folder (`<name>/SKILL.md`) or a command file (`<name>.md`). */
  kind: z.enum(['skill', 'command']),
  /** Where the agent finds it: the user's folder, the project's, or a plugin's. */
  source: z.enum(['user', 'project', 'plugin']),
  /** The folder or file name the listing sorts by and shows. */
  name: z.string().min(1),
  /** The text as listed; absent in a roster written with hashed names, which keeps only `chars`. */
  description: z.string().optional(),
  /** The description's length in characters (what the budget counts of it). */
  chars: count.optional(),
  /** Claude Code's use record (`~/.claude.json` `skillUsage`), which ranks the entry. */
  usage: z.object({ usageCount: count, lastUsedAt: count }).optional(),
});

export const rosterFileSchema = z.object({
  schema: z.literal(ROSTER_SCHEMA_ID),
  schemaVersion: z.literal(ROSTER_SCHEMA_VERSION),
  private: z.string(),
  agent: z.enum(AGENT_IDS),
  agentVersion: z.string().nullable(),
  /** The listing budget on the machine it came from, in the agent's unit; absent when not known. */
  budget: count.optional(),
  hashedNames: z.boolean().optional(),
  entries: z.array(rosterEntrySchema),
});

export type RosterFile = z.infer<typeof rosterFileSchema>;
export type RosterEntry = z.infer<typeof rosterEntrySchema>;
