/**
 * The seeded randomness of the simulated model's scripts: a script's `ScriptContext.random` and the
 * `probabilistic` script, so a scenario replays the same for the same seed.
 */
import { createHash } from 'node:crypto';
import type { Behaviour, Script } from './script.js';

/** sfc32 seeded from SHA-256, so the sequence depends only on (seed, query, occurrence). */
export function seededRandom(seed: number, query: string, occurrence: number): () => number {
  const digest = createHash('sha256').update(`${seed}\u0000${occurrence}\u0000${query}`).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** Hit with probability `p[query]` (seeded), else miss; queries not in the table get `fallback`. */
export function probabilistic(
  p: Record<string, number>,
  hit: Behaviour,
  miss: Behaviour,
  fallback?: Behaviour,
): Script {
  return (req, ctx) => {
    if (!Object.hasOwn(p, req.query)) return fallback;
    const probability = p[req.query] ?? 0;
    return ctx.random() < probability ? hit : miss;
  };
}
