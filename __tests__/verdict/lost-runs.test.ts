import { describe, expect, it } from 'vitest';
import { errorCauseKey, lostRunsReasons, parseErrorCauseKey } from '../../src/verdict/lost-runs.js';

describe('why runs were lost', () => {
  it('keys an error by cause and status, and reads both key forms back', () => {
    expect(errorCauseKey({ kind: 'error', cause: 'api', status: 500 })).toBe('api:500');
    expect(errorCauseKey({ kind: 'error', cause: 'network' })).toBe('network');
    expect(parseErrorCauseKey('api:500')).toEqual({ cause: 'api', status: 500 });
    // A version-1 key: the cause alone.
    expect(parseErrorCauseKey('rate-limit')).toEqual({ cause: 'rate-limit' });
  });

  it('names the status and what it means, most frequent first, and the timeouts', () => {
    expect(
      lostRunsReasons({ errorCauses: { 'rate-limit:429': 1, 'api:500': 3 }, timeouts: 2, executed: 9 }),
    ).toEqual([
      "the API answered 500 on 3 of 9 runs: Anthropic's side failed; re-run the job",
      'the API answered 429 on 1 of 9 runs: the API rate-limited this key; re-run later, or with fewer runs',
      '2 of 9 runs timed out: no decision came in time; re-run, or raise the timeout',
    ]);
    expect(lostRunsReasons({ errorCauses: { network: 1 }, timeouts: 0, executed: 1 })).toEqual([
      '1 of 1 run ended in an error (network): no HTTP answer came back; check the network and ANTHROPIC_BASE_URL',
    ]);
    expect(lostRunsReasons({ errorCauses: { api: 2 }, timeouts: 0, executed: 4 })[0]).toBe(
      '2 of 4 runs ended in an error (api): the API answered with an error',
    );
  });
});
