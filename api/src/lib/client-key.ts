import ipaddr from 'ipaddr.js';

/**
 * The key a client address is counted under by the rate limits and the admin login lockout. An IPv6 client counts
 * per /64: a subscriber or a rented server is given a whole /64 and can take a fresh address from it for every
 * request, so a limit per IPv6 address limits nothing. IPv4, and IPv4 written as IPv6 (`::ffff:203.0.113.7`, what a
 * dual-stack socket reports), stay per address. Anything that does not parse as an address is its own key.
 */
export function clientKey(address: string): string {
  const bare = address.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return address;
  const ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv4') return ip.toString();
  const [a, b, c, d] = (ip as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a!, b!, c!, d!, 0, 0, 0, 0]).toString()}/64`;
}
