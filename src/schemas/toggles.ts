import { z } from 'zod';

/**
 * The toggles file's shape: the plugins skilltrigger told the user to disable, each remembered
 * until a later preflight sees it enabled again. The file itself (its place, read and atomic
 * write) is src/agents/claude/toggles-file.ts; the rules that keep or add entries are
 * src/agents/claude/gates/toggles.ts.
 */
const toggleSchema = z.object({
  id: z.string().min(1),
  scope: z.string().regex(/^[A-Za-z-]+$/),
  /** The skill whose measurement the plugin was in the way of. */
  skill: z.string(),
  /** When the disable command was printed. */
  printedAt: z.iso.datetime(),
});

export const togglesFileSchema = z.object({
  schema: z.literal('skilltrigger/toggles'),
  version: z.literal(1),
  toggles: z.array(toggleSchema),
});

export type RememberedToggle = z.infer<typeof toggleSchema>;
