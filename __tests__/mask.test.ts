import { describe, expect, it } from 'vitest';
import { SECRET_VARIABLES } from '../src/agents/registry.js';
import { MASK, maskSecrets, maskUrlCredentials, registerSecrets } from '../src/mask.js';

/** The one masking function every output goes through (src/mask.ts). */
describe('maskSecrets', () => {
  it('masks any sk-ant- token, registered or not, wherever it sits', () => {
    expect(maskSecrets('key sk-ant-api03-Ab_9-xyz. then')).toBe(`key ${MASK}. then`);
    expect(maskSecrets('{"k":"sk-ant-zzz"}')).toBe(`{"k":"${MASK}"}`);
    expect(maskSecrets('no key here')).toBe('no key here');
  });

  it('masks the values of the credential variables it was given, whatever their shape', () => {
    registerSecrets(
      { ANTHROPIC_AUTH_TOKEN: 'gw-token-0123456789', ANTHROPIC_API_KEY: 'abcdefgh-long' },
      SECRET_VARIABLES,
    );
    expect(maskSecrets('upstream saw gw-token-0123456789 and abcdefgh-long twice: abcdefgh-long')).toBe(
      `upstream saw ${MASK} and ${MASK} twice: ${MASK}`,
    );
  });

  it('leaves values too short to be a key alone, and variables that are not credentials', () => {
    registerSecrets({ ANTHROPIC_API_KEY: 'x', HOME: '/root/home-folder' }, SECRET_VARIABLES);
    expect(maskSecrets('x marks /root/home-folder')).toBe('x marks /root/home-folder');
  });

  it('masks a secret that contains another one whole', () => {
    registerSecrets(
      {
        CLAUDE_CODE_OAUTH_TOKEN: 'oauth-inner',
        AWS_BEARER_TOKEN_BEDROCK: 'outer-oauth-inner-x',
      },
      SECRET_VARIABLES,
    );
    expect(maskSecrets('outer-oauth-inner-x / oauth-inner')).toBe(`${MASK} / ${MASK}`);
  });

  it("masks a URL's user:password@ and its secret-looking query values, and nothing else of it", () => {
    expect(maskSecrets('for https://gw-user:hunter2@gateway.example/v1?api-version=2&api-key=abc123')).toBe(
      `for https://${MASK}@gateway.example/v1?api-version=2&api-key=${MASK}`,
    );
    expect(
      maskUrlCredentials('(http://tok@h:8080/x#frag) and http://h/p?Access_Token=t&x-api-key=k&q=1'),
    ).toBe(`(http://${MASK}@h:8080/x#frag) and http://h/p?Access_Token=${MASK}&x-api-key=${MASK}&q=1`);
    expect(maskUrlCredentials('https://github.com/o/r/pull/7?tab=files')).toBe(
      'https://github.com/o/r/pull/7?tab=files',
    );
    expect(maskUrlCredentials('user:pw@host is not a URL')).toBe('user:pw@host is not a URL');
  });
});
