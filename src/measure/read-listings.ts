/**
 * The listing each side's runs will send, read before the runs by probes of their own environment
 * (docs/listing-budget.md, "The listing of a measured run"): the default agent's catalogue probe,
 * and every other agent's through its runtime.
 */
import path from 'node:path';
import type { AgentId } from '../agents/agent.js';
import { defaultAgentListing, runtimeOf } from '../agents/runtime.js';
import type { ListingRead } from '../report/build/listing.js';
import type { LoopSpec } from './loop-spec.js';
import type { MeasureSettings } from './measure-settings.js';

/**
 * Each side's listing as its runs will send it, read by one probe per agent and side of the runs'
 * own environment (docs/listing-budget.md, "The listing of a measured run"); a probe that fails is
 * told, and its side's runs then carry no state.
 */
export async function readListings(
  settings: MeasureSettings,
  loop: LoopSpec,
  signal: AbortSignal | undefined,
): Promise<ListingRead> {
  const targets = settings.agents ?? [
    { agent: 'claude' as const, ...(settings.model ? { model: settings.model } : {}) },
  ];
  const modelOf = (agent: AgentId) =>
    targets.find((t) => t.agent === agent)?.model ??
    (targets.length === 1 ? settings.models?.[0] : undefined);
  const read: ListingRead = { sides: loop.sides.map(() => ({})), failures: [] };
  const claude = targets.some((t) => t.agent === 'claude')
    ? await defaultAgentListing({
        claudeBin: settings.claudeBin,
        env: settings.env,
        ...(settings.roster?.claude ? { roster: settings.roster.claude } : {}),
      })
    : undefined;
  for (const [i, side] of loop.sides.entries()) {
    if (signal?.aborted) break;
    const pictures = read.sides[i] ?? {};
    if (claude) {
      const got = await claude(side.stub, path.basename(settings.skill.dir), modelOf('claude'));
      if (got.kind === 'read') pictures.claude = got.picture;
      else read.failures.push({ agent: 'claude', reason: got.reason });
    }
    const descriptions = [settings.description, settings.baselineDescription];
    for (const [id, other] of Object.entries(settings.others ?? {})) {
      const agent = id as AgentId;
      const probe = runtimeOf(agent)?.listing;
      const description = descriptions[i];
      if (!probe || !other || description === undefined || !targets.some((t) => t.agent === agent)) continue;
      const model = modelOf(agent);
      const got = await probe({
        bin: other.bin,
        env: settings.env,
        ...(model ? { model } : {}),
        skillName: settings.skill.name,
        description,
        siblings: other.siblings,
        ...(settings.roster ? { crowd: settings.roster.crowd.entries } : {}),
      });
      if (got.kind === 'read') pictures[agent] = got.picture;
      else read.failures.push({ agent, reason: got.reason });
    }
  }
  return read;
}
