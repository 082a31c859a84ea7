// The guard of the host's one-file bundle: `import()` expressions are counted in the code, not in its comments.
import { describe, expect, it } from 'vitest';
import { dynamicImportsIn } from './host-bundle-plugin';

describe('dynamicImportsIn', () => {
  it('counts import() expressions wherever they are in the code', () => {
    expect(dynamicImportsIn("const load = () => import('dockerode');")).toBe(1);
    expect(dynamicImportsIn('async function f(name) { return [await import(name), await import(`./${name}`)]; }')).toBe(2);
    expect(dynamicImportsIn('const load = () => import (\n"dockerode");')).toBe(1);
  });

  it('ignores comments, strings and static requires', () => {
    const code = [
      "/** @param {import('../types/index').Options} options */",
      "// import('x')",
      "const text = \"import('y')\";",
      "const later = () => require('dockerode');",
      'exports.text = text; exports.later = later;',
    ].join('\n');
    expect(dynamicImportsIn(code)).toBe(0);
  });
});
