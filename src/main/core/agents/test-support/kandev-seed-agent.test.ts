// The seed's specs on a machine without jq and uuidgen: they skip naming the install line, and fail in CI instead.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedAgentSkip } from './kandev-seed-agent';

// A PATH with a shell and nothing else, as on a fresh machine without the two tools.
const bare = mkdtempSync(join(tmpdir(), 'desk-bare-path-'));
symlinkSync('/bin/sh', join(bare, 'sh'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

describe('the Kandev seed specs on a machine without their tools', () => {
  it('skip, naming the tools and the line that installs them', () => {
    expect(seedAgentSkip({ PATH: bare })).toBe("the seed's Kandev agent needs jq and uuidgen: apt-get install -y jq uuid-runtime");
  });

  it('fail instead under DESK_REQUIRE_KANDEV_TOOLS=1, as CI sets it', () => {
    expect(() => seedAgentSkip({ PATH: bare, DESK_REQUIRE_KANDEV_TOOLS: '1' })).toThrow(/must run here \(DESK_REQUIRE_KANDEV_TOOLS=1\), but the seed's Kandev agent needs jq and uuidgen/);
  });

  it('run once both tools are on the PATH', () => {
    const tools = mkdtempSync(join(tmpdir(), 'desk-seed-tools-'));
    try {
      for (const tool of ['jq', 'uuidgen']) writeFileSync(join(tools, tool), '#!/bin/sh\n', { mode: 0o755 });
      expect(seedAgentSkip({ PATH: `${bare}:${tools}` })).toBe(false);
    } finally {
      rmSync(tools, { recursive: true, force: true });
    }
  });
});
