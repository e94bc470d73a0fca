/**
 * `descriptionRule()`: a Script under which the simulated model cares about the text. A measured
 * run loads the stub with the probability of the text rule (text-rule.ts) for the listed
 * description of the stub and the query; the two author prompts get rule-built answers
 * (author-answers.ts). Tests replace any part of it: a rate per (description, query), a fixed
 * behaviour per query, the draft and rewrite answers.
 */

import { type ContextsPromptInput, readContextsPrompt } from '../author/contexts.js';
import {
  type DraftPromptInput,
  type RewritePromptInput,
  readDraftPrompt,
  readRewritePrompt,
} from '../author/prompts.js';
import { contextsAnswer, draftAnswer, rewriteAnswer } from './author-answers.js';
import { stubSkillName } from './request.js';
import { type Routes, routeOnce } from './route.js';
import type { Behaviour, Script } from './script.js';
import { bestEntry, listedProbability } from './text-rule.js';

/**
 * The rule for prior turns (docs/cli.md, "The simulated model"): a run that starts with a context
 * (any user or assistant message before the query) loads the stub with the text rule's probability
 * times this factor, as skills are loaded less often mid-session. A toy number, not a measurement.
 */
export const CONTEXT_FACTOR = 0.6;

export interface DescriptionRuleOptions {
  /**
   * A scripted rate: the probability of loading the stub for this listed description and query.
   * `undefined` falls back to the text rule.
   */
  rate?: (description: string, query: string) => number | undefined;
  /** A fixed first-turn behaviour per query text (checked first, before any rate). */
  overrides?: Record<string, Behaviour>;
  /** Scripted routes among the listed stubs per query text (route.ts), checked after `overrides`. */
  routes?: Routes;
  /**
   * The factor a context multiplies the load probability by (default CONTEXT_FACTOR), or a function
   * of the number of earlier user and assistant messages; a fresh run (none) is never changed.
   */
  contextFactor?: number | ((priorTurns: number) => number);
  /** What a hit does (default: a Skill call naming the stub). */
  hit?: Behaviour;
  /** What a miss does (default: a plain text answer). */
  miss?: Behaviour;
  /** The answer text to the n-th (0-based, per prompt text) draft prompt; default rule-built. */
  draft?: (prompt: DraftPromptInput, occurrence: number) => string;
  /** The answer text to the n-th rewrite prompt (0-based, over all rewrite prompts); default rule-built. */
  rewrite?: (prompt: RewritePromptInput, n: number) => string;
  /** The answer text to `init`'s contexts prompt; default rule-built. */
  contexts?: (prompt: ContextsPromptInput) => string;
}

export type AuthorPromptKind = 'draft' | 'rewrite' | 'contexts';

/** Which author prompt a query is, if any. */
export function authorPromptKind(query: string): AuthorPromptKind | undefined {
  if (readDraftPrompt(query) !== undefined) return 'draft';
  if (readRewritePrompt(query) !== undefined) return 'rewrite';
  if (readContextsPrompt(query) !== undefined) return 'contexts';
  return undefined;
}

export function descriptionRule(options: DescriptionRuleOptions = {}): Script {
  const hit = options.hit ?? { kind: 'skill' };
  const miss = options.miss ?? { kind: 'text' };
  let rewrites = 0;
  /** The probability `p` as a run with `priorTurns` earlier messages sees it. */
  const inContext = (p: number, priorTurns: number | undefined): number => {
    if (!priorTurns) return p;
    const factor = options.contextFactor ?? CONTEXT_FACTOR;
    const f = typeof factor === 'number' ? factor : factor(priorTurns);
    return p * Math.min(1, Math.max(0, f));
  };
  return (req, ctx) => {
    const draft = readDraftPrompt(req.query);
    if (draft !== undefined) {
      return { kind: 'text', text: (options.draft ?? draftAnswer)(draft, ctx.occurrence) };
    }
    const rewrite = readRewritePrompt(req.query);
    if (rewrite !== undefined) {
      const n = rewrites++;
      return { kind: 'text', text: options.rewrite ? options.rewrite(rewrite, n) : rewriteAnswer(rewrite) };
    }
    const contexts = readContextsPrompt(req.query);
    if (contexts !== undefined) {
      return { kind: 'text', text: (options.contexts ?? contextsAnswer)(contexts) };
    }
    const fixed = options.overrides?.[req.query];
    if (fixed !== undefined) return fixed;
    const route = options.routes?.[req.query];
    if (route !== undefined) return routeOnce(route, req, ctx.random(), miss);
    // The gate query and stub-less runs (the roster run) keep the default answer.
    if (req.stub === undefined) return undefined;
    // Siblings listed: the best-fitting stub is the one the model may load (text-rule.ts).
    if ((req.stubs?.length ?? 0) > 1) {
      const best = bestEntry(req.query, req.stubs ?? [], stubSkillName);
      if (best === undefined) return miss;
      const p = options.rate?.(best.entry.description, req.query) ?? best.probability;
      if (ctx.random() >= inContext(p, req.priorTurns)) return miss;
      return best.entry === req.stub ? hit : { kind: 'skill', name: best.entry.name };
    }
    // A stub listed bare (description '') is read by its name, at a lower rate (text-rule.ts).
    const description = req.stub.description;
    const p = options.rate?.(description, req.query) ?? listedProbability(req.query, req.stub, stubSkillName);
    return ctx.random() < inContext(p, req.priorTurns) ? hit : miss;
  };
}
