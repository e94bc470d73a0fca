import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeAskFailure } from '../agents/ask.js';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { askAgent } from '../agents/runtime.js';
import { assignSplits, type DraftEntry, readDraft, renderDraft } from '../author/draft.js';
import { EXISTS_FIX, writeNewFile } from '../author/files.js';
import { draftPrompt } from '../author/prompts.js';
import { skillBody } from '../author/skill-file.js';
import { ExitCode, InputError, SkilltriggerError } from '../errors.js';
import { parseEvalSet } from '../inputs/eval-set.js';
import { loadSkill } from '../inputs/files.js';
import { firstLine } from '../program-output.js';
import { exists } from '../system/input-file.js';
import type { InitArgs } from './author-args.js';
import { checkCommand } from './check-command.js';
import { withDraftedContexts } from './init-contexts.js';
import type { CliIo } from './run-command.js';

/** Asked once, and once more when the answer is not a draft. */
const ATTEMPTS = 2;

type Ask = (text: string) => ReturnType<typeof askAgent>;

/**
 * `skilltrigger init`: one drafting call (retried once on a malformed answer), a stratified
 * holdout marked, the contexts of the prompts that presuppose a session drafted, the file written
 * only if its name is free, then `check`'s findings on it.
 */
export async function initCommand(args: InitArgs, io: CliIo, signal: AbortSignal): Promise<ExitCode> {
  const skill = await loadSkill(args.skill);
  const out = args.out ?? path.join(skill.dir, 'evals', 'evals.json');
  // Before anything is spent: a file in the way is never overwritten.
  if (await exists(out)) throw new InputError({ file: out }, 'already exists', EXISTS_FIX);
  const body = skillBody(await readFile(skill.file, 'utf8'));
  const agent = args.agent ?? DEFAULT_AGENT;
  // Another agent's prompts name it (`a Codex skill`); the default agent's are as they always were.
  const skillText = {
    skillName: skill.name,
    description: skill.description,
    body,
    ...(agent === DEFAULT_AGENT ? {} : { agentLabel: agentFacts(agent).label }),
  };
  const ask: Ask = (text) =>
    askAgent(agent, text, {
      bin: args.bins[agent],
      env: io.env,
      maxRetries: args.maxRetries,
      ...(args.model ? { model: args.model } : {}),
      timeoutMs: args.timeoutSeconds * 1000,
      signal,
    });
  const prompt = draftPrompt({ ...skillText, count: args.count });
  const draft = await draftEntries(prompt, ask, { ...args, agent }, { out, skillName: skill.name }, io);
  // The prompts that presuppose a session get the conversation they continue (init-contexts.ts).
  const entries = await withDraftedContexts(
    draft,
    skillText,
    async (text) => {
      const answer = await ask(text);
      return answer.kind === 'answer' || answer.kind === 'interrupted'
        ? answer
        : { kind: 'failed', why: describeAskFailure(answer, agentFacts(agent)) };
    },
    io,
  );
  parseEvalSet(renderDraft(entries), out, skill.name, 'skill-creator-json');
  await writeNewFile(out, renderDraft(entries));
  const positives = entries.filter((e) => e.should_trigger);
  const held = entries.filter((e) => e.split === 'holdout');
  io.stdout.write(
    `wrote ${out}: ${entries.length} prompts (${positives.length} should trigger, ${entries.length - positives.length} near-misses), ${held.length} held out (${held.filter((e) => e.should_trigger).length} + ${held.filter((e) => !e.should_trigger).length})\n`,
  );
  const drafted = entries.filter((e) => e.context_drafted).length;
  if (drafted > 0)
    io.stdout.write(
      `${drafted} prompt${drafted === 1 ? ' carries' : 's carry'} a drafted context ("context_drafted": true): the conversation ${drafted === 1 ? 'it continues' : 'each continues'}, inline.\n`,
    );
  io.stdout.write(
    `This is a draft: read every prompt${drafted > 0 ? ' and context' : ''}, fix what a user would not say, then measure it.\n`,
  );
  await checkCommand({ command: 'check', skills: [], evals: [out], bins: args.bins }, io);
  return ExitCode.verdict;
}

/**
 * The draft: asked once, and once more when the answer is not one; its holdout marked, and loaded
 * through the project's own eval-set loader. A failed or interrupted call ends `init` with nothing written.
 */
async function draftEntries(
  prompt: string,
  ask: Ask,
  args: InitArgs & { agent: AgentId },
  file: { out: string; skillName: string },
  io: CliIo,
): Promise<DraftEntry[]> {
  let problem = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const through = args.agent === DEFAULT_AGENT ? '' : ` through ${agentFacts(args.agent).label}`;
    io.stderr.write(
      `init: asking ${args.model ?? 'the default model'}${through} for ${args.count} prompts${attempt > 1 ? ' (second try)' : ''}…\n`,
    );
    const answer = await ask(prompt);
    if (answer.kind === 'interrupted')
      throw new SkilltriggerError('init: interrupted; no draft was written', ExitCode.noVerdict);
    if (answer.kind !== 'answer') {
      throw new SkilltriggerError(
        `init: no draft: ${describeAskFailure(answer, agentFacts(args.agent))}. Fix: run \`skilltrigger preflight${args.agent === DEFAULT_AGENT ? '' : ` --agent ${args.agent}`}\` to check the login and the model, then retry`,
        answer.kind === 'spawn-failed' ? ExitCode.input : ExitCode.noVerdict,
      );
    }
    const reading = readDraft(answer.text);
    // What came back, first line only: enough to see what the model did, never the whole answer.
    const began = `the answer began: ${firstLine(answer.text, 120) || '(nothing)'}`;
    if (reading.kind === 'malformed') {
      problem = `${reading.problem}; ${began}`;
    } else {
      const candidate = assignSplits(reading.items);
      try {
        // The project's own loader is the schema the file must pass.
        parseEvalSet(renderDraft(candidate), file.out, file.skillName, 'skill-creator-json');
        return candidate;
      } catch (error) {
        if (!(error instanceof SkilltriggerError)) throw error;
        problem = `the draft does not load as an eval set: ${error.message.split('\n')[0] ?? ''}; ${began}`;
      }
    }
    if (attempt < ATTEMPTS)
      io.stderr.write(`init: the answer is not a draft (${problem}); asking once more\n`);
  }
  throw new SkilltriggerError(
    `init: the model's answer is not a draft, twice: ${problem}. Fix: retry, or choose another model with --model`,
    ExitCode.input,
  );
}
