import type { Behaviour } from '../../src/simulated/model.js';
import { type ListingEntry, type RequestView, stubSkillName } from '../../src/simulated/request.js';

/**
 * The Action e2e tests name each eval query after the skill it belongs to (`handoff-pos 1: …`,
 * `cancel-neg 1: …` for `cancel-sigterm`). With siblings listed (`competition: siblings`), every
 * changed skill's stub sits among its siblings' stubs, so `req.stub` (the first `-stub-` entry) may
 * be a sibling's; these helpers pick the stub of the skill the query belongs to instead.
 */

/** The listed stub of the skill whose name is the query's `<prefix>-pos`/`<prefix>-neg` (or starts with `<prefix>-`). */
export function stubOfQuery(req: RequestView): ListingEntry | undefined {
  const prefix = /^(.+?)-(?:pos|neg)\b/.exec(req.query)?.[1];
  const stubs = req.stubs ?? (req.stub ? [req.stub] : []);
  if (prefix === undefined) return req.stub;
  return (
    stubs.find((e) => stubSkillName(e.name) === prefix) ??
    stubs.find((e) => stubSkillName(e.name).startsWith(`${prefix}-`)) ??
    req.stub
  );
}

/** A Skill call naming the stub of the skill the query belongs to. */
export function loadOwnStub(req: RequestView): Behaviour {
  const name = stubOfQuery(req)?.name;
  return name === undefined ? { kind: 'skill' } : { kind: 'skill', name };
}
