// Which loopback listeners the sandbox's bridge opens for an allowlist, and what each asks the proxy for.
import { describe, expect, it } from 'vitest';
import { compileAllowlist } from './host-allowlist';
import { forwardArgument, loopbackForwards, withoutDeskPort } from './loopback-forwards';

const forwardsOf = (entries: string[]) => loopbackForwards(compileAllowlist(entries).rules);

describe('loopbackForwards', () => {
  it('listens on 127.0.0.1 at the port a 127.0.0.1 entry names, and tunnels to the same endpoint', () => {
    expect(forwardsOf(['127.0.0.1:4000'])).toEqual([{ address: '127.0.0.1', port: 4000, target: '127.0.0.1:4000' }]);
  });

  it('listens on both loopback addresses for a localhost entry, tunnelling to localhost', () => {
    expect(forwardsOf(['localhost:11434'])).toEqual([
      { address: '127.0.0.1', port: 11434, target: 'localhost:11434' },
      { address: '::1', port: 11434, target: 'localhost:11434' },
    ]);
  });

  it('lets an entry naming the address win over localhost at the same port', () => {
    expect(forwardsOf(['localhost:8080', '[::1]:8080'])).toEqual([
      { address: '127.0.0.1', port: 8080, target: 'localhost:8080' },
      { address: '::1', port: 8080, target: '[::1]:8080' },
    ]);
  });

  it('opens nothing for service hosts, wildcards, other addresses or loopback entries without a port', () => {
    expect(forwardsOf(['api.anthropic.com', '*.googleapis.com', '10.0.0.2:8080', '127.0.0.2:8080', 'localhost', '127.0.0.1'])).toEqual([]);
  });

  it('writes the bridge argument with IPv6 listeners bracketed', () => {
    expect(forwardsOf(['[::1]:9']).map(forwardArgument)).toEqual(['[::1]:9=[::1]:9']);
    expect(forwardsOf(['127.0.0.1:9']).map(forwardArgument)).toEqual(['127.0.0.1:9=127.0.0.1:9']);
  });
});

describe('withoutDeskPort', () => {
  it('leaves out every loopback spelling of the desk\'s own port and keeps the rest', () => {
    expect(withoutDeskPort(['127.0.0.1:4100', 'localhost:4100', '[::1]:4100', '127.0.0.1:4000', 'example.com:4100'], 4100)).toEqual({
      kept: ['127.0.0.1:4000', 'example.com:4100'],
      dropped: ['127.0.0.1:4100', 'localhost:4100', '[::1]:4100'],
    });
  });
});
