import { describe, expect, it } from 'vitest';
import { agentQuote, describeText, hash12, rosterOf, sha256Hex } from '../../src/schemas/privacy.js';
import { descriptionSchema, rosterSchema } from '../../src/schemas/report.js';

describe('sha256Hex and hash12', () => {
  it('hash the UTF-8 bytes (known vectors)', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(sha256Hex(Buffer.from('c3a9', 'hex').toString('utf8')));
  });

  it('hash12 is the first 12 hex of the SHA-256', () => {
    expect(hash12('abc')).toBe('ba7816bf8f01');
    expect(hash12('commit')).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('describeText', () => {
  it('keeps the UTF-8 byte count and the hash, never the text', () => {
    const text = 'Tables from PDFs — é 😀';
    const described = describeText(text, true);
    expect(described).toEqual({
      bytes: Buffer.byteLength(text, 'utf8'),
      sha256: sha256Hex(text),
      overridden: true,
    });
    expect(described.bytes).toBe(text.length + 2 /* — */ + 1 /* é */ + 2 /* 😀: 2 code units, 4 bytes */);
    expect(JSON.stringify(described)).not.toContain('PDF');
    expect(descriptionSchema.parse(described)).toEqual(described);
  });

  it('counts an empty description as 0 bytes', () => {
    expect(describeText('', false)).toMatchObject({ bytes: 0, overridden: false });
  });
});

describe('rosterOf', () => {
  const stub = 'pdf-tables-stub-1a2b3c4d';

  it('leaves the stub out of the counts and the members', () => {
    const roster = rosterOf(['commit', stub, 'docx'], ['docx', stub], [stub]);
    expect(roster.slashCommands).toBe(2);
    expect(roster.skills).toBe(1);
    expect(roster.members).not.toContain(hash12(stub));
    expect(roster.members).toEqual([hash12('commit'), hash12('docx')].sort());
  });

  it('stores members as the sorted, distinct hashes of the union', () => {
    const roster = rosterOf(['b', 'a', 'a'], ['c', 'b'], []);
    expect(roster).toEqual({
      slashCommands: 2,
      skills: 2,
      members: [hash12('a'), hash12('b'), hash12('c')].sort(),
    });
    expect(rosterSchema.parse(roster)).toEqual(roster);
  });

  it('holds no name in the clear', () => {
    const roster = rosterOf(['secret-internal-command'], ['private-skill'], []);
    const json = JSON.stringify(roster);
    expect(json).not.toContain('secret');
    expect(json).not.toContain('private');
  });

  it('is empty for an empty roster', () => {
    expect(rosterOf([], [], [stub])).toEqual({ slashCommands: 0, skills: 0, members: [] });
  });
});

describe('agentQuote: what a message may quote of an agent', () => {
  it('the first line, with paths as <path> and credential-looking values as ***', () => {
    expect(
      agentQuote(
        "\n  Error: EACCES: open '/home/u/acme/.npmrc' (token ghp_16C7e42F292c6912E7710c838347Ae178B4a)\nmore",
      ),
    ).toBe("Error: EACCES: open '<path>' (token ***)");
    expect(agentQuote('read ~/secret/x.pem and ./a/b.txt, then ../up')).toBe(
      'read <path> and <path>, then <path>',
    );
    expect(agentQuote('Authorization: Bearer abc.def api_key=xyz password="p w"')).toBe(
      'Authorization: Bearer *** api_key=*** password=***',
    );
    expect(agentQuote('request id 0a1b2c3d4e5f6a7b8c9d0e1f2a3b failed')).toBe('request id *** failed');
  });

  it('leaves ordinary words, versions and a URL host alone, and masks its credentials', () => {
    expect(agentQuote('claude 2.1.328 said: model not found (status 404)')).toBe(
      'claude 2.1.328 said: model not found (status 404)',
    );
    expect(agentQuote('cannot reach https://u:p@gw.example/v1?key=k')).toBe(
      'cannot reach https://***@gw.example/v1?key=***',
    );
  });
});
