/**
 * The listing each side's runs will send, read before the runs by probes of their own environment
 * (docs/listing-budget.md, "The listing of a measured run"): each agent's side listing, through its
 * runtime.
 */
import path from 'node:path';
import type { AgentId } from '../agents/ids.js';
import type { ListingProbe } from '../agents/listing.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { ListingRead } from '../report/build/listing.js';
import type { MeasureSettings } from './measure-settings.js';
import { type MeasurementLoop, type RuntimeLookup, runSetupOf } from './measurement-loop.js';

/**
 * Each side's listing as its runs will send it, read by one probe per agent and side of the runs'
 * own environment (docs/listing-budget.md, "The listing of a measured run"); a probe that fails is
 * told, and its side's runs then carry no state.
 */
export async function readListings(
  settings: MeasureSettings,
  made: MeasurementLoop,
  signal: AbortSignal | undefined,
  runtimes: RuntimeLookup,
): Promise<ListingRead> {
  const { targets } = made.targets;
  const modelOf = (agent: AgentId) =>
    targets.find((t) => t.agent === agent)?.model ??
    (targets.length === 1 ? settings.models?.[0] : undefined);
  const read: ListingRead = { sides: made.plan.sides.map(() => ({})), failures: [] };
  const probes: Array<{ agent: AgentId; probe: (side: number) => Promise<ListingProbe> }> = [];
  // The default agent's probe first, then the others in the plan's order.
  const agents = [...new Set(targets.map((t) => t.agent))].sort(
    (a, b) => Number(b === DEFAULT_AGENT) - Number(a === DEFAULT_AGENT),
  );
  for (const agent of agents) {
    const setup = runSetupOf(settings, made, agent);
    const prepare = runtimes(agent).sideListing;
    if (setup === undefined || prepare === undefined) continue;
    const model = modelOf(agent);
    probes.push({
      agent,
      probe: await prepare({
        bin: setup.bin,
        env: settings.env,
        ...(model ? { model } : {}),
        stubs: setup.stubs,
        folder: path.basename(settings.skill.dir),
        ...(setup.crowd ? { crowd: setup.crowd } : {}),
        ...(setup.cleanSides ? { cleanSides: setup.cleanSides } : {}),
      }),
    });
  }
  for (const [i] of made.plan.sides.entries()) {
    if (signal?.aborted) break;
    const pictures = read.sides[i] ?? {};
    for (const { agent, probe } of probes) {
      const got = await probe(i);
      if (got.kind === 'read') pictures[agent] = got.picture;
      else read.failures.push({ agent, reason: got.reason });
    }
  }
  return read;
}
