import { describe, expect, it } from 'vitest';
import { probeSandbox } from './sandbox-probe';

describe('finding out whether agents can be confined', () => {
  it('says what to install when bubblewrap is missing', async () => {
    const status = await probeSandbox({ platform: 'linux', path: '/nonexistent' });
    expect(status).toMatchObject({ kind: 'none', available: false, reason: 'bubblewrap (bwrap) is not installed.' });
    expect(status.fix).toContain('apt-get install bubblewrap');
  });

  it('says agents run unconfined on systems without a sandbox yet', async () => {
    expect(await probeSandbox({ platform: 'win32' })).toMatchObject({ available: false, reason: expect.stringContaining('win32') });
    expect(await probeSandbox({ platform: 'darwin' })).toMatchObject({ available: false, reason: expect.stringContaining('macOS') });
  });
});
