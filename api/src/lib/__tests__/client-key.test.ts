import { describe, expect, it } from 'vitest';
import { clientKey } from '../client-key';

describe('clientKey', () => {
  it('counts an IPv6 client per /64, whichever address of it is used and however it is written', () => {
    const key = clientKey('2001:db8:a:b::1');
    expect(key).toBe('2001:db8:a:b::/64');
    for (const same of ['2001:db8:a:b:ffff:ffff:ffff:fffe', '2001:DB8:A:B:0:0:0:7', '[2001:db8:a:b::9]', '2001:0db8:000a:000b::1']) {
      expect(clientKey(same)).toBe(key);
    }
    expect(clientKey('2001:db8:a:c::1')).not.toBe(key);
    expect(clientKey('2001:db8:b:b::1')).not.toBe(key);
  });

  it('keeps IPv4 per address, also when a dual-stack socket reports it as IPv4-mapped IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.8')).toBe('203.0.113.8');
  });

  it('leaves what is not an address as it is', () => {
    expect(clientKey('')).toBe('');
    expect(clientKey('unknown')).toBe('unknown');
  });
});
