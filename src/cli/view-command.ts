import path from 'node:path';
import { ExitCode, messageOf } from '../errors.js';
import { comparePagePathFor, pagePathFor, writePageIfMissing } from '../report/disk/pages.js';
import { readPageSource, readReportFile } from '../report/files.js';
import { renderHtml } from '../report/html/render.js';
import { openFile } from '../system/opener.js';
import { TOOL_VERSION } from '../version.js';
import type { ViewArgs } from './args.js';
import type { CliIo } from './run-command.js';

/**
 * `skilltrigger view <report.json> [<b.json>] [--open]`: the report's HTML page, written beside
 * it if it is not there yet (reports from before pages existed, or a page deleted), its path
 * printed. With two reports, the page of `compare a.json b.json` (a = baseline, b = candidate),
 * written in b's folder. An improve report gets its improve page. `--open` hands the page to the
 * platform's opener.
 */

export async function viewCommand(args: ViewArgs, io: CliIo): Promise<ExitCode> {
  const [a, b] = args.reports;
  // Read and validated first: a file that is not a report gets its error, not a page.
  let page: string;
  let render: () => string;
  if (b === undefined) {
    const source = await readPageSource(a);
    page = pagePathFor(a);
    render = () => renderHtml(source, TOOL_VERSION);
  } else {
    const base = await readReportFile(a);
    const cand = await readReportFile(b);
    page = comparePagePathFor(a, b);
    // Named by their files, as `compare` names them; two files of one name (reports of one skill on
    // one day, in two folders) would read alike, so those are called by their roles.
    const files = { base: path.basename(a), cand: path.basename(b) };
    const names = files.base === files.cand ? { base: 'baseline', cand: 'candidate' } : files;
    render = () => renderHtml({ kind: 'compare', base, cand, names }, TOOL_VERSION);
  }
  await writePageIfMissing(page, render);
  io.stdout.write(`${page}\n`);
  if (args.open) {
    try {
      await openFile(path.resolve(page), { env: io.env });
    } catch (error) {
      const reason = messageOf(error);
      io.stderr.write(
        `warning: could not start the platform's opener (${reason}); open ${page} in a browser yourself\n`,
      );
    }
  }
  return ExitCode.verdict;
}
