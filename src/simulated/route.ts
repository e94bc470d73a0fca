/**
 * Scripted routes (for `run --siblings` and `matrix`): per query, the probability of each listed stub being loaded, so a
 * test knows what the simulated model did among the tested stub and its siblings. Keys are skill
 * names (`xlsx`, whatever its stub is called in the listing: `xlsx-stub-1a2b3c4d` in the command
 * layout, `xlsx` in the skill layout); the rest of the probability is a plain text answer. A key
 * that names no listed stub is called by that name as it is (another skill, e.g. a built-in).
 */

import { type RequestView, stubSkillName } from './request.js';
import type { Behaviour, Script } from './script.js';

/** query → (skill name → probability); each query's probabilities add up to at most 1. */
export type Routes = Record<string, Record<string, number>>;

/** The listed name of the stub standing for `skill`, else `skill` itself. */
export function listedNameOf(req: RequestView, skill: string): string {
  const stubs = req.stubs ?? (req.stub ? [req.stub] : []);
  return stubs.find((entry) => stubSkillName(entry.name) === skill)?.name ?? skill;
}

/**
 * One seeded draw per first turn: the first key whose cumulative probability passes the draw is
 * loaded with a Skill call, else `miss`. Queries without a route get `fallback` (default answer).
 */
export function routeScript(routes: Routes, fallback?: Script, miss: Behaviour = { kind: 'text' }): Script {
  return (req, ctx) => {
    const route = Object.hasOwn(routes, req.query) ? routes[req.query] : undefined;
    if (route === undefined) return fallback?.(req, ctx);
    return routeOnce(route, req, ctx.random(), miss);
  };
}

/** The behaviour one draw in [0, 1) picks from a route. */
export function routeOnce(
  route: Record<string, number>,
  req: RequestView,
  draw: number,
  miss: Behaviour = { kind: 'text' },
): Behaviour {
  let cumulative = 0;
  for (const [skill, p] of Object.entries(route)) {
    cumulative += p;
    if (draw < cumulative) return { kind: 'skill', name: listedNameOf(req, skill) };
  }
  return miss;
}
