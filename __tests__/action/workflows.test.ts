import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** The workflows are part of the product: the example is what users copy, CI what keeps dist/ honest. */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function load(file: string): Record<string, unknown> {
  const parsed: unknown = parse(
    readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8'),
  );
  if (!isRecord(parsed)) throw new Error(`${file} is not a mapping`);
  return parsed;
}

/** Every step of every job, as mappings. */
function steps(workflow: Record<string, unknown>): Record<string, unknown>[] {
  const jobs = isRecord(workflow.jobs) ? Object.values(workflow.jobs) : [];
  return jobs.flatMap((job) => (isRecord(job) && Array.isArray(job.steps) ? job.steps.filter(isRecord) : []));
}

describe('examples/workflows/skilltrigger.yml', () => {
  const workflow = load('examples/workflows/skilltrigger.yml');

  it('runs on pushes to main, pull requests, by hand and weekly, with only the permissions it needs', () => {
    expect(workflow.on).toMatchObject({
      push: { branches: ['main'] },
      // No paths filter: a required check a filter skips never reports.
      pull_request: null,
      schedule: [{ cron: '17 6 * * 1' }],
    });
    const dispatch = isRecord(workflow.on) ? workflow.on.workflow_dispatch : undefined;
    expect(dispatch).toEqual({
      inputs: {
        drift: expect.objectContaining({ type: 'boolean', default: false }),
        'accept-drift': expect.objectContaining({ type: 'boolean', default: false }),
      },
    });
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });

  it('cancels an older run only on a pull request, so a push to main always saves its baselines', () => {
    expect(workflow.concurrency).toEqual({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
      group: 'skilltrigger-${{ github.event.pull_request.number || github.ref }}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
      'cancel-in-progress': "${{ github.event_name == 'pull_request' }}",
    });
  });

  it('measures pull requests in a job that never skips one, and watches drift in its own', () => {
    const jobs = isRecord(workflow.jobs) ? workflow.jobs : {};
    const main = isRecord(jobs.skilltrigger) ? jobs.skilltrigger : {};
    const drift = isRecord(jobs.drift) ? jobs.drift : {};
    // The schedule is the drift job's alone: the measure job there would save baselines unseen.
    expect(main.if).toBe("github.event_name != 'schedule' && !inputs.drift");
    expect(drift.if).toBe("github.event_name == 'schedule' || inputs.drift");
    expect(drift.permissions).toEqual({ contents: 'read', issues: 'write' });
    const driftSteps = Array.isArray(drift.steps) ? drift.steps.filter(isRecord) : [];
    const action = driftSteps.find((s) => String(s.uses).includes('skilltrigger@'));
    expect(action?.with).toMatchObject({
      mode: 'drift',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
      'accept-drift': '${{ inputs.accept-drift || false }}',
      'max-cost-usd': 10,
    });
  });

  it('budgets the job and uploads the reports whatever the outcome', () => {
    const all = steps(workflow);
    const action = all.find((s) => String(s.uses).includes('skilltrigger@'));
    expect(action?.with).toMatchObject({ 'max-cost-usd': 5, 'fail-on-regression': true });
    const upload = all.find((s) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with).toMatchObject({ path: 'skilltrigger-results/' });
  });

  it('checks out the full history and passes the key from a secret', () => {
    const all = steps(workflow);
    const checkout = all.find((s) => String(s.uses).startsWith('actions/checkout'));
    expect(checkout?.with).toEqual({ 'fetch-depth': 0 });
    const action = all.find((s) => String(s.uses).includes('skilltrigger@'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
    expect(action?.with).toMatchObject({ 'anthropic-api-key': '${{ secrets.ANTHROPIC_API_KEY }}' });
  });
});

describe('examples/workflows/skilltrigger-sharded.yml', () => {
  const workflow = load('examples/workflows/skilltrigger-sharded.yml');
  const jobs = isRecord(workflow.jobs) ? workflow.jobs : {};
  const measure = isRecord(jobs.measure) ? jobs.measure : {};
  const merge = isRecord(jobs.merge) ? jobs.merge : {};
  const jobSteps = (job: Record<string, unknown>) =>
    Array.isArray(job.steps) ? job.steps.filter(isRecord) : [];

  it('measures over a matrix, each leg its shard, uploading its results', () => {
    const strategy = isRecord(measure.strategy) ? measure.strategy : {};
    const matrix = isRecord(strategy.matrix) ? strategy.matrix : {};
    expect(matrix.shard).toEqual([1, 2, 3]);
    const action = jobSteps(measure).find((s) => String(s.uses).includes('skilltrigger@'));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
    expect(action?.with).toMatchObject({ shard: '${{ matrix.shard }}/3' });
    const upload = jobSteps(measure).find((s) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload?.with).toMatchObject({ path: 'skilltrigger-results/' });
  });

  it('merges after every leg: downloads all artifacts into one folder and runs mode: merge', () => {
    expect(merge.needs).toBe('measure');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, not a template
    expect(merge.if).toBe('${{ !cancelled() }}');
    const download = jobSteps(merge).find((s) => String(s.uses).startsWith('actions/download-artifact'));
    expect(download?.with).toMatchObject({ 'merge-multiple': true, path: 'skilltrigger-shards' });
    const action = jobSteps(merge).find((s) => String(s.uses).includes('skilltrigger@'));
    expect(action?.with).toMatchObject({ mode: 'merge', 'results-dir': 'skilltrigger-shards' });
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
  });
});

describe('.github/workflows', () => {
  it('CI installs from the lockfile and runs the tests', () => {
    const runs = steps(load('.github/workflows/ci.yml')).map((s) => s.run);
    expect(runs).toContain('npm ci');
    expect(runs).toContain('npm test');
  });

  it('check-dist rebuilds the bundle and fails when dist/ differs', () => {
    const all = steps(load('.github/workflows/check-dist.yml'));
    expect(all.map((s) => s.run)).toContain('npm run bundle');
    expect(all.some((s) => typeof s.run === 'string' && s.run.includes('git status --porcelain'))).toBe(true);
  });
});
