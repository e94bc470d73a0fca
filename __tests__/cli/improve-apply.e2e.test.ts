import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImproveReport } from '../../src/schemas/improve.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { improveFixture } from '../fakes/improve-fixture.js';

/**
 * `improve --apply` through `node bin/skilltrigger.js`, with claude's environment pointed at the
 * simulated model: the winner of a finished session goes into SKILL.md with no request to the
 * model, only while SKILL.md's description is still the session's original, changing nothing else.
 */
const ORIGINAL = 'Helps with notes.';
const WINNER = 'Writes the session handoff note.';

let world: CliWorld;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'improve-apply-e2e',
    model: { seed: 28, script: () => ({ kind: 'text' }) },
  });
});
afterAll(async () => {
  await world?.close();
});

/** A skill folder holding `text` as its SKILL.md, and an improve report of the fixture's session. */
async function scenario(name: string, text: string, report: ImproveReport | object = improveFixture()) {
  const skillFile = await world.write(`${name}/handoff/SKILL.md`, text);
  const reportFile = await world.write(`${name}/2025-03-14-handoff-improve.json`, JSON.stringify(report));
  const apply = (extra: string[] = []) =>
    runCli(['improve', '--apply', reportFile, '--skill', path.dirname(skillFile), ...extra], {
      env: world.claude.env,
    });
  return { skillFile, reportFile, apply };
}

describe('improve --apply', () => {
  it('writes the winner with no model call, changing only the description (folded, CRLF, BOM, comments)', async () => {
    const before =
      '\uFEFF---\r\nname: handoff\r\ndescription: >\r\n  Helps with\r\n  notes.\r\nlicense: MIT # kept\r\n---\r\n\r\n# handoff\r\ndescription: a body line, not the frontmatter\r\n';
    const { skillFile, apply } = await scenario('folded', before);
    const requests = world.model.requests.length;
    const r = await apply();
    expect(r.code, r.stderr).toBe(0);
    expect(world.model.requests.length).toBe(requests);
    expect(await readFile(skillFile, 'utf8')).toBe(
      before.replace('description: >\r\n  Helps with\r\n  notes.\r\n', `description: "${WINNER}"\r\n`),
    );
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('SIMULATED: this evidence comes from the simulated model, not from a real model.');
    expect(lines).toContain(`before: ${ORIGINAL}`);
    expect(lines).toContain(`after:  ${WINNER}`);
    // The evidence: the accepted paired result on train, and the holdout check.
    expect(lines).toContain(
      '  train, iteration 2 (paired against the incumbent, interleaved): positives triggered 0/6 → 6/6 · negatives fired 0/6 → 0/6 · improvement, p = 0.0011 (judged at α = 0.0125)',
    );
    expect(lines).toContain(
      '  holdout (the winner paired against the original, on queries no rewrite saw): positives triggered 0/3 → 3/3 · negatives fired 0/3 → 0/3 · improvement: held: positives triggered 0/3 → 3/3',
    );
    // A second apply finds the winner already there and writes nothing.
    const again = await apply();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already holds the winner; nothing was written');
  });

  it('refuses a SKILL.md whose description changed since the session (exit 1, file untouched)', async () => {
    const text = '---\nname: handoff\ndescription: Helps with notes, edited since.\n---\n\nBody.\n';
    const { skillFile, apply } = await scenario('changed', text);
    const r = await apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${skillFile}: its description changed since the improve session (sha256 `);
    expect(r.stderr).toContain(
      'nothing was written. Fix: run skilltrigger improve again on the current description',
    );
    expect(await readFile(skillFile, 'utf8')).toBe(text);
    expect(r.stdout).toBe('');
  });

  it('refuses a report without a winner, and one of a version it does not read, saying why', async () => {
    const text = `---\nname: handoff\ndescription: ${ORIGINAL}\n---\n`;
    // Consistent as a session writes it: no candidate accepted, so no winner.
    const kept = improveFixture(undefined, {
      candidates: improveFixture().candidates.map((c) => ({ ...c, decision: 'rejected' as const })),
      final: { winner: null, holdout: null, recommendation: 'keep-original', written: false },
    });
    const none = await scenario('no-winner', text, kept);
    const r = await none.apply();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'has no winner: no rewrite was a significant improvement on train, so the original stays; nothing to apply',
    );
    const future = { ...improveFixture(), schemaVersion: 99 };
    const newer = await scenario('newer', text, future);
    const v = await newer.apply();
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('not a valid skilltrigger improve report: $.schemaVersion: Too big');
    for (const s of [none, newer]) expect(await readFile(s.skillFile, 'utf8')).toBe(text);
  });

  it('takes only --skill beside it: a measuring option is a usage error', async () => {
    const { apply, skillFile } = await scenario(
      'extra',
      `---\nname: handoff\ndescription: ${ORIGINAL}\n---\n`,
    );
    const r = await apply(['--runs', '3']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--apply writes a finished session');
    expect(r.stderr).toContain('got --runs');
    await writeFile(skillFile, `---\nname: handoff\ndescription: ${ORIGINAL}\n---\n`);
  });
});
