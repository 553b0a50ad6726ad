/** Which client a request's address stands for, for the limits counted per client address. */
import { isIP } from "node:net";

/**
 * The key of a client address. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack
 * socket reports IPv4 clients) counts as its IPv4 address. Any other IPv6 address counts as
 * its /64 network: one customer line is routinely given a whole /64 and can pick any address
 * in it, so keying on the full address would let one client start a burst from each.
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = "", tail] = address.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  // A dotted IPv4 ending stands for two groups; it is always past the first four.
  const width = (parts: string[]) => parts.reduce((n, p) => n + (p.includes(".") ? 2 : 1), 0);
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<string>(8 - width(front) - width(back)).fill("0"), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
