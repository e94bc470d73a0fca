import { sha256Hex } from '../../schemas/privacy.js';

/**
 * The listed text (what the default agent lists, and what its runs measured) as the report holds
 * it: size and hash, never the text.
 */
export function describeListed(
  text: string,
  source: 'probe' | 'emulation',
): { bytes: number; sha256: string; source: 'probe' | 'emulation' } {
  return { bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256Hex(text), source };
}
