/**
 * The report's account of the listing (docs/listing-budget.md, "The listing of a measured run"):
 * each run's stub state, from its own request where the agent's run read it, else from the probe of
 * the same environment; and per agent, the probe's picture with every entry's name hashed.
 */
import type { AgentId } from '../../agents/ids.js';
import type { ListingPicture, ListingState, StubListing } from '../../agents/listing.js';
import { DEFAULT_AGENT } from '../../agents/registry.js';
import { hash12 } from '../../schemas/privacy.js';
import type { AgentListing } from '../../schemas/report.js';

/** What a run says of its listing: the agent that ran it, and the stub's state when its request was read. */
export interface ListedRun {
  agent?: AgentId;
  listing?: StubListing;
}

export type ListingPictures = Partial<Record<AgentId, ListingPicture>>;

/** What the listing probes read per side (candidate first), or why one failed. */
export interface ListingRead {
  sides: ListingPictures[];
  failures: Array<{ agent: AgentId; reason: string }>;
}

/** A run's stub state: its own request's, else its agent's probe's; null when neither was read. */
export function runState(run: ListedRun, pictures: ListingPictures): ListingState | null {
  return run.listing?.state ?? pictures[run.agent ?? DEFAULT_AGENT]?.stub.state ?? null;
}

/** One agent's picture as the report holds it, with its runs counted. */
export function agentListing(picture: ListingPicture, runs: readonly ListedRun[]): AgentListing {
  const entries = { whole: 0, cut: 0, bare: 0, omitted: 0 };
  entries[picture.stub.state] += 1;
  for (const e of picture.entries) entries[e.state] += 1;
  const members = picture.entries
    .map((e) => ({ id: hash12(e.name), state: e.state }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const counted = { whole: 0, cut: 0, bare: 0, fromRequest: 0 };
  for (const run of runs) {
    const state = run.listing?.state ?? picture.stub.state;
    counted[state] += 1;
    if (run.listing !== undefined) counted.fromRequest += 1;
  }
  return {
    unit: picture.unit,
    ...(picture.budget === undefined ? {} : { budget: picture.budget }),
    used: picture.used,
    entries,
    members,
    stub: { state: picture.stub.state, chars: picture.stub.chars },
    runs: counted,
  };
}

/** Per agent measured, its listing with the runs it ran; undefined when no picture was read. */
export function measurementListing(
  records: readonly (readonly ListedRun[])[],
  pictures: ListingPictures,
): Partial<Record<AgentId, AgentListing>> | undefined {
  const out: Partial<Record<AgentId, AgentListing>> = {};
  for (const [agent, picture] of Object.entries(pictures) as Array<[AgentId, ListingPicture]>) {
    const runs = records.flat().filter((r) => (r.agent ?? DEFAULT_AGENT) === agent);
    out[agent] = agentListing(picture, runs);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
