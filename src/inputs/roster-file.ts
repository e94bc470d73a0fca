/**
 * A roster file made from what an agent lists (docs/roster.md). With `hashNames`, each name becomes
 * `h` and hex of its SHA-256, as long as the name was (the listing counts a name's width), and each
 * description only its length in characters: the budget's arithmetic is kept, the words are not.
 * Pure.
 */
import type { AgentId } from '../agents/ids.js';
import type { InstalledEntry } from '../agents/listing.js';
import { sha256Hex } from '../schemas/privacy.js';
import {
  ROSTER_PRIVATE_NOTICE,
  ROSTER_SCHEMA_ID,
  ROSTER_SCHEMA_VERSION,
  type RosterEntry,
  type RosterFile,
} from '../schemas/roster-file.js';

/** A name of the same length that does not say it: `h` and the hex of its hash (repeated past 64). */
export function hashedName(name: string): string {
  const hex = sha256Hex(name).repeat(Math.ceil(name.length / 64) + 1);
  return `h${hex.slice(0, Math.max(1, name.length - 1))}`;
}

export function rosterFile(
  agent: AgentId,
  agentVersion: string | undefined,
  entries: readonly InstalledEntry[],
  options: { hashNames: boolean },
): RosterFile {
  const out = entries.map(
    (e): RosterEntry => ({
      kind: e.kind,
      source: e.source,
      name: options.hashNames ? hashedName(e.name) : e.name,
      ...(options.hashNames ? {} : { description: e.description }),
      chars: Array.from(e.description).length,
      ...(e.usage ? { usage: e.usage } : {}),
    }),
  );
  return {
    schema: ROSTER_SCHEMA_ID,
    schemaVersion: ROSTER_SCHEMA_VERSION,
    private: ROSTER_PRIVATE_NOTICE,
    agent,
    agentVersion: agentVersion ?? null,
    ...(options.hashNames ? { hashedNames: true } : {}),
    entries: out,
  };
}
