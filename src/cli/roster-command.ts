/**
 * `skilltrigger roster export`: the catalogue an agent lists on this machine, written as a roster
 * file (docs/roster.md). The agent's own listing is read by its probe in a throwaway HOME: nothing
 * is written to the user's HOME, no model is called.
 */
import { agentVersion, installedEntries } from '../agents/runtime.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { rosterFile } from '../inputs/roster-file.js';
import { replaceFile } from '../system/atomic-files.js';
import type { RosterExportArgs } from './args.js';
import type { CliIo } from './output.js';

export async function rosterExportCommand(args: RosterExportArgs, io: CliIo): Promise<ExitCode> {
  const read = await installedEntries(args.agent, {
    bin: args.bin,
    env: io.env,
    ...(args.model ? { model: args.model } : {}),
  });
  if (read.kind === 'failed')
    throw new SkilltriggerError(
      `roster export: ${args.agent}'s listing could not be read (${read.reason}). Fix: check that ${args.bin} runs (skilltrigger preflight --agent ${args.agent})`,
      ExitCode.input,
    );
  const version = await agentVersion(args.agent, args.bin, io.env);
  const roster = rosterFile(args.agent, version, read.entries, { hashNames: args.hashNames });
  await replaceFile(args.out, `${JSON.stringify(roster, null, 2)}\n`);
  const skills = read.entries.filter((e) => e.kind === 'skill').length;
  const commands = read.entries.length - skills;
  io.stdout.write(
    `roster: ${skills} skill${skills === 1 ? '' : 's'} and ${commands} command${commands === 1 ? '' : 's'} ${args.agent} lists, written to ${args.out}${args.hashNames ? ' (names hashed, descriptions as lengths)' : ''}; it is private: it holds what this machine has installed\n`,
  );
  return ExitCode.verdict;
}
