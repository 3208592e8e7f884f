import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { literalPattern } from '../../src/alerts/matchers/literal-pattern.js';

/** The shortcut must agree with RE2's full match on every pattern it takes. */
describe('literal patterns', () => {
  const patterns = [
    '',
    'node-a',
    'node-a|node-b',
    'a|',
    '.*',
    '.+',
    '.*.*',
    '.+.+',
    'node-.*',
    'node-.+',
    '.*-prod',
    '.+-prod',
    '.*prod.*',
    '.+prod.+',
    '.*prod.+',
    '.+prod.*',
    'validator-1|.*-2|x.+',
    'é€😀.*',
    '.+😀',
  ];
  const values = [
    '',
    'node-a',
    'node-b',
    'node-',
    'node-ab',
    'a',
    'prod',
    'x-prod',
    '-prod',
    'prodprod',
    'aprodb',
    'a\nprod',
    'node-\n',
    'x',
    'xy',
    'é€😀',
    'é€😀z',
    '😀',
    'a😀',
    '\n',
  ];

  it('takes literals with | and leading or trailing .* or .+, and agrees with RE2 on each', () => {
    for (const pattern of patterns) {
      const test = literalPattern(pattern);
      expect(test, pattern).toBeDefined();
      const re2 = RE2JS.compile(pattern);
      for (const value of values) expect(test!(value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`).toBe(re2.matches(value));
    }
  });

  it('leaves every other pattern to RE2', () => {
    for (const pattern of ['a.b', '(a|b)', '[ab]', 'a?', 'a*', '\\.', '^a', 'a$', 'a{2}', '(?i)a', 'a\nb', '.*a.*b']) {
      expect(literalPattern(pattern), pattern).toBeUndefined();
    }
  });
});
