import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Webhooks never reach this machine or a private network unless the owner allows it (decision 044):
 * a webhook's address is the business's choice, but whoever holds an Owner's account must not be able
 * to make the server call its own admin ports or the cloud's metadata service (server-side request
 * forgery). The address is checked when the webhook is saved and at every delivery, on the addresses
 * the name resolves to then, by the same lookup the connection uses (no second resolution to race).
 */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  privateRanges.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is loopback, private, link-local, shared, reserved or multicast. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return privateRanges.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class ForbiddenAddressError extends Error {
  constructor(host: string) {
    super(`${host} is on this machine or a private network: webhooks go there only when Settings → Webhooks allow it`);
  }
}

/** The lookup a webhook's connection uses: the name's addresses, refused when one is private (unless allowed). */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address)))
        return callback(new ForbiddenAddressError(hostname), '', 4);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Refuses an address the webhook may not call (checked when it is saved): an IP written in the address
 * is checked as it is (no lookup is made for it), a name on what it resolves to now.
 */
export async function checkWebhookAddress(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new ForbiddenAddressError(host);
    return;
  }
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new ForbiddenAddressError(host);
}
