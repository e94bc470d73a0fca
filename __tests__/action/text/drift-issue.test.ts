import { describe, expect, it } from 'vitest';
import { judgeDrift } from '../../../src/action/results/drift.js';
import type { ActionRun } from '../../../src/action/results/results.js';
import {
  driftClosingBody,
  driftIssueBody,
  driftIssueTitle,
  driftSummaryLines,
  environmentText,
} from '../../../src/action/text/drift-issue.js';
import { renderSummary } from '../../../src/action/text/summary.js';
import { driftRun, driftSkill, fallen, good } from '../../fakes/drift-run.js';

/** The drift issue's title and bodies, and the summary's drift lines (pure). */

const HEAD = '9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c';
const onOpus = { model: { requested: 'claude-opus-4-5', reported: { 'claude-opus-4-5': 14 } } };

describe('driftIssueTitle', () => {
  it('names the skills that moved and the model change that explains them', () => {
    const run = driftRun([driftSkill('handoff', fallen, true, onOpus), driftSkill('pdf', good)]);
    expect(driftIssueTitle(judgeDrift(run, false))).toBe(
      'skilltrigger drift: handoff moved after the model changed (claude-sonnet-4-5 → claude-opus-4-5)',
    );
  });

  it('names a CLI change when the model is the same, and says so when nothing changed', () => {
    const cli = driftRun([driftSkill('a', fallen, true, { cli: { version: '2.2.0' } })]);
    expect(driftIssueTitle(judgeDrift(cli, false))).toBe(
      'skilltrigger drift: a moved after Claude Code 2.1.328 → 2.2.0',
    );
    const same = driftRun([driftSkill('a', fallen), driftSkill('b', fallen)]);
    expect(driftIssueTitle(judgeDrift(same, false))).toBe(
      'skilltrigger drift: a and b moved with no change seen in the model, the CLI or the roster',
    );
  });

  it('lists three skills, then how many more', () => {
    const run = driftRun(['a', 'b', 'c', 'd', 'e'].map((n) => driftSkill(n, fallen)));
    expect(driftIssueTitle(judgeDrift(run, false))).toMatch(/^skilltrigger drift: a, b, c and 2 more moved /);
  });
});

describe('the issue bodies', () => {
  it('the open issue: each moved skill by how much, what changed, the baselines kept, how to accept', () => {
    const run = {
      ...driftRun([driftSkill('handoff', fallen, true, onOpus), driftSkill('pdf', good)]),
      headSha: HEAD,
    };
    const body = driftIssueBody(run, judgeDrift(run, false));
    expect(body).toContain('| ❌ handoff | 12/12 → 0/12 (100% → 0%, −100 pp) **regression** |');
    expect(body).toContain('model asked for claude-sonnet-4-5 → claude-opus-4-5');
    expect(body).toContain('- Noise (no change): pdf');
    expect(body).toContain('**The stored baselines were not refreshed**');
    expect(body).toContain('accept-drift: true');
    expect(body).toContain('Checked on commit `9f8e7d6`');
  });

  it('closes with why: back to noise, or accepted', () => {
    const clear = driftRun([driftSkill('a', good)]);
    expect(driftClosingBody(clear, judgeDrift(clear, false))).toContain('Every skill is back to noise');
    const accepted = driftRun([driftSkill('a', fallen)]);
    expect(driftClosingBody(accepted, judgeDrift(accepted, true))).toContain('The drift was accepted');
  });

  it('says when a refresh could not save a skill', () => {
    const skill = driftSkill('a', good);
    skill.saved = { saved: false, why: 'the cache service is down' };
    const run = driftRun([skill]);
    expect(driftClosingBody(run, judgeDrift(run, false))).toContain('1 of 1 could not be saved');
  });

  it('escapes a skill name that would mention, link or forge a row', () => {
    const run = driftRun([driftSkill('@octocat | #12 <b>x</b>', fallen)]);
    const findings = judgeDrift(run, false);
    for (const text of [driftIssueBody(run, findings), driftSummaryLines(run, findings).join('\n')]) {
      expect(text).not.toContain('@octocat');
      expect(text).not.toContain('<b>');
      expect(text).not.toMatch(/\| #12/);
    }
  });
});

describe('environmentText', () => {
  it('spells every change, or that none was seen', () => {
    expect(environmentText({ cli: [] })).toBe('no change seen in the model, the CLI or the roster');
    expect(
      environmentText({
        requested: { before: null, after: 'claude-haiku-4-5' },
        cli: [{ label: 'Codex', before: '0.169.0', after: null }],
        roster: { added: 2, removed: 1 },
      }),
    ).toBe(
      'model asked for the CLI default → claude-haiku-4-5; Codex 0.169.0 → unknown; roster 2 added, 1 removed',
    );
  });
});

describe('the job summary of a drift run', () => {
  it('says the issue and the baselines were left as they were when nothing was measured', () => {
    const refused: ActionRun = { ...driftRun([]), stage: 'input-error' };
    expect(renderSummary(refused, '0.1.0')).toContain(
      '### Drift watch\n\nNothing was measured, so the drift issue and the stored baselines were left as they were.',
    );
    const measured = renderSummary(driftRun([driftSkill('a', good)]), '0.1.0');
    expect(measured).toContain('**No drift:** every skill compared is noise');
    expect(measured).not.toContain('Nothing was measured');
    expect(renderSummary({ ...driftRun([]), drift: undefined }, '0.1.0')).not.toContain('Drift watch');
  });
});
