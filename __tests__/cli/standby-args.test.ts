import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';

const env = { SKILLTRIGGER_CLAUDE: '/bin/claude-x' };
const run = ['run', '--skill', 's', '--eval', 'e.json'];

describe('--standby N', () => {
  it('absent leaves the count to the machine; 0 to 4 are taken as given', () => {
    expect(parseCli(run, env)).not.toHaveProperty('standby');
    expect(parseCli([...run, '--standby', '0'], env)).toMatchObject({ standby: 0 });
    expect(parseCli([...run, '--standby', '4'], env)).toMatchObject({ standby: 4 });
    expect(parseCli(['matrix', '--skills', 'skills', '--standby', '2'], env)).toMatchObject({ standby: 2 });
    const improve = ['improve', '--skill', 's', '--eval', 'e.json'];
    expect(parseCli(improve, env)).not.toHaveProperty('standby');
    expect(parseCli([...improve, '--standby', '0'], env)).toMatchObject({ command: 'improve', standby: 0 });
    expect(() => parseCli([...improve, '--standby', '5'], env)).toThrow(
      /--standby must be a whole number from 0 to 4/,
    );
  });

  it.each(['5', '-1', '1.5', 'two', ''])('refuses %j, naming the flag and what it accepts', (value) => {
    expect(() => parseCli([...run, '--standby', value], env)).toThrow(UsageError);
    expect(() => parseCli([...run, '--standby', value], env)).toThrow(
      /--standby must be a whole number from 0 to 4/,
    );
  });
});
