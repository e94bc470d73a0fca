// The bench's side by side with skill-creator: a model of the loop of skill-creator's
// `scripts/run_eval.py` (anthropics/skills, read 2026-12-01), rebuilt here from what it does,
// not from its code, so both harnesses run on one machine against one simulated model. What it
// reproduces, because it decides the time a run takes or the verdict it gives:
// - one project for the whole eval, made once before the runs and removed after them:
//   `<tmp>/claude-skill-evals/<name>-<uuid>/.claude/skills/<name>/SKILL.md` (the skill's real name,
//   its description as a YAML block scalar), and no repository in it (`repository: true` adds one,
//   to tell what the repository costs from what the loop costs);
// - `claude -p <query> --output-format stream-json --verbose --include-partial-messages
//   --max-turns 8`, in the caller's environment minus `CLAUDECODE` (no retry cap, no
//   `--no-session-persistence`), stdout and stderr piped;
// - the verdict from the stream events: a `Skill` or `Read` tool_use block whose input, gathered
//   from its `input_json_delta`s, names the skill (Skill: `skill` equal to the name; Read: a path
//   ending in `/.claude/skills/<name>/SKILL.md`) triggers at that block's `content_block_stop`, as
//   does such a call in an `assistant` event; a `result` event or the end of the output is "not
//   triggered", and so is a timeout; there is no error outcome;
// - the stop: the process itself (not a group) gets SIGKILL, and the next run starts once it has
//   been waited for. One worker: one run after another.
// It measures; it asserts nothing.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const MAX_TURNS = 8;

/** Whether one tool call is the eval skill being consulted, as the old harness tells it. */
function consults(name, tool, input) {
  if (tool === 'Skill') return String(input?.skill ?? '').trim() === name;
  if (tool === 'Read') {
    const file = String(input?.file_path ?? '').replaceAll('\\', '/');
    return `/${file.replace(/^\/+/, '')}`.endsWith(`/.claude/skills/${name}/SKILL.md`);
  }
  return false;
}

/** The old harness's reading of one stream: true, false, or undefined while it reads on. */
function reader(name) {
  let pending;
  let gathered = '';
  return (event) => {
    if (event.type === 'stream_event') {
      const inner = event.event ?? {};
      if (inner.type === 'content_block_start') {
        const block = inner.content_block ?? {};
        if (block.type === 'tool_use') {
          pending = block.name === 'Skill' || block.name === 'Read' ? block.name : undefined;
          gathered = '';
        }
      } else if (inner.type === 'content_block_delta' && pending) {
        if (inner.delta?.type === 'input_json_delta') gathered += inner.delta.partial_json ?? '';
      } else if (inner.type === 'content_block_stop' && pending) {
        let input = {};
        try {
          input = gathered ? JSON.parse(gathered) : {};
        } catch {
          input = {};
        }
        const tool = pending;
        pending = undefined;
        if (consults(name, tool, input)) return true;
      }
    } else if (event.type === 'assistant') {
      for (const block of event.message?.content ?? []) {
        if (block.type === 'tool_use' && consults(name, block.name, block.input)) return true;
      }
    } else if (event.type === 'result') {
      return false;
    }
    return undefined;
  };
}

/** The eval's one project, as the old harness makes it. */
export async function skillCreatorProject(name, description, { repository = false } = {}) {
  const dir = path.join(os.tmpdir(), 'claude-skill-evals', `${name}-${randomUUID().replaceAll('-', '')}`);
  const skillDir = path.join(dir, '.claude', 'skills', name);
  await mkdir(skillDir, { recursive: true });
  const indented = description.split('\n').join('\n  ');
  await writeFile(
    path.join(skillDir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: |\n  ${indented}\n---\n\n# ${name}\n\nThis skill handles: ${description}\n`,
  );
  if (repository) execFileSync('git', ['init', '-q'], { cwd: dir });
  // The old harness keeps its projects' root for later sweeps; the bench leaves nothing behind.
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    await rmdir(path.dirname(dir)).catch(() => undefined); // only when no other eval uses it
  };
  return { dir, remove };
}

/** One run of the old harness's loop: its verdict (true / false) and when it was spawned. */
export function skillCreatorRun({ claude, env, dir, name, query, timeoutMs = 30_000 }) {
  const { CLAUDECODE: _, ...inherited } = env;
  const spawnedAt = Date.now();
  const child = spawn(
    claude,
    [
      '-p',
      query,
      '--output-format',
      'stream-json',
      '--verbose',
      '--include-partial-messages',
      '--max-turns',
      String(MAX_TURNS),
    ],
    { cwd: dir, env: inherited, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const read = reader(name);
  child.stderr.resume();
  return new Promise((resolve) => {
    let settled = false;
    let buffer = '';
    // Like Python's `wait()`: the process's end, not its pipes' (a child it started may hold them).
    const exited = new Promise((done) => child.on('exit', done));
    const finish = async (verdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      resolve({ triggered: verdict, spawnedAt });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0 && !settled) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
        if (!line) continue;
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          continue;
        }
        const verdict = read(event);
        if (verdict !== undefined) finish(verdict);
      }
    });
    child.stdout.on('end', () => finish(false));
  });
}

/** The old harness over `queries`, one after another in one project; each run's verdict. */
export async function skillCreatorLoop({ claude, env, name, description, queries, repository = false }) {
  const project = await skillCreatorProject(name, description, { repository });
  try {
    const runs = [];
    for (const query of queries)
      runs.push(await skillCreatorRun({ claude, env, dir: project.dir, name, query }));
    return runs;
  } finally {
    await project.remove();
  }
}
