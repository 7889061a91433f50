import { describe, expect, it } from 'vitest';
import { parseFlags, UsageError } from '../../../src/cli/cli.js';

const options = { client: { type: 'string' }, grant: { type: 'string' }, force: { type: 'boolean' } } as const;

describe('command-line flags', () => {
  it('takes a value that begins with a dash, as generated client and grant ids may', () => {
    expect(parseFlags(['--client', '-Xk2_a', '--grant', '--9q'], options, 'usage')).toEqual({
      client: '-Xk2_a',
      grant: '--9q',
    });
  });

  it('still fails with the usage when a flag is left without its value', () => {
    expect(() => parseFlags(['--client', '--grant', 'g1'], options, 'the usage')).toThrow(UsageError);
    expect(() => parseFlags(['--client', '--grant', 'g1'], options, 'the usage')).toThrow(/--client.*\n\nthe usage$/s);
    expect(() => parseFlags(['--client'], options, 'u')).toThrow(UsageError);
  });

  it('refuses unknown flags and stray words', () => {
    expect(() => parseFlags(['--colour', 'red'], options, 'u')).toThrow(/colour/);
    expect(() => parseFlags(['stray'], options, 'u')).toThrow(UsageError);
    expect(parseFlags(['--force', '--client=a'], options, 'u')).toEqual({ force: true, client: 'a' });
  });
});
