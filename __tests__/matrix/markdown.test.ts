import { describe, expect, it } from 'vitest';
import { matrixChart, matrixTextLines, renderMatrixMarkdown } from '../../src/matrix/markdown.js';
import { FIXTURE_SKILLS, matrixFixture, scriptedRuns } from '../fakes/matrix-report.js';

describe('the matrix Markdown', () => {
  const report = matrixFixture(scriptedRuns);
  const md = renderMatrixMarkdown(report);

  it('renders every cell of the matrix, the figures, the stolen list and a skill with no eval set', () => {
    expect(md).toContain('| queries of | label | runs | alpha | beta | gamma | none/other |');
    expect(md).toContain('| alpha | positive | 4 | **2** | 2 | 0 | 0 |');
    expect(md).toContain('| alpha | negative | 2 | 0 | 0 | 1 | 1 |');
    expect(md).toContain('| beta | positive | 2 | 0 | **2** | 0 | 0 |');
    expect(md).toContain('| gamma | no eval set (installed as a competitor) |');
    expect(md).toMatch(/\| alpha \| 2\/4 = 50% \[\d+%, \d+%\] \| 2\/2 = 100% \[\d+%, 100%\] \|/);
    expect(md).toContain('| alpha | a2: query a2 | beta | 2 | 0 | 2 |');
    expect(md).toContain('```mermaid');
    expect(matrixTextLines(report).join('\n')).toMatch(/stolen: alpha\/a2 went to beta 2\/2, to alpha 0\/2/);
    expect(matrixTextLines(report).join('\n')).toMatch(/gamma +no eval set · precision 0\/2 = 0%/);
  });

  it('escapes hostile skill names in the tables and keeps them out of mermaid syntax', () => {
    const skills = FIXTURE_SKILLS.map((s) => (s.name === 'beta' ? { ...s, name: 'b|"]-->x[<img>' } : s));
    const hostile = matrixFixture(
      (owner, id) =>
        scriptedRuns(owner === skills[1]?.name ? 'beta' : owner, id).map((r) =>
          r.to === 'skill' && r.skill === 'beta' ? { ...r, skill: skills[1]?.name ?? '' } : r,
        ),
      { skills },
    );
    const text = renderMatrixMarkdown(hostile);
    expect(text).not.toContain('<img>');
    expect(text).toContain('b\\|"\\]--&gt;x\\[&lt;img&gt;');
    const chart = matrixChart(hostile).join('\n');
    expect(chart).toContain('["b___--_x__img_"]');
    expect(chart).not.toMatch(/<img>|\|"/);
  });
});
