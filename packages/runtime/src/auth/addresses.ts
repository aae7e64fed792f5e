import { AuthorizationError } from "./http-auth.js";

// Which hosts the OAuth client may be sent to by what a server publishes (issue 27): a public
// MCP server must not make it request private or loopback addresses (the cloud metadata
// service, the user's router, services on localhost), which its metadata could name as an
// authorization server or endpoint. Only the URL's host is looked at: a literal address or
// a localhost name. A DNS name that resolves to a private address is not caught here; an
// app that needs that gives a `fetch` that checks the address it connects to.

/** IPv4 ranges that are not the public internet: [base address, prefix length]. */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 3], // multicast, reserved, broadcast
];

const v4Number = (address: string) =>
  address.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);

function isPrivateV4(address: string): boolean {
  const n = v4Number(address);
  return PRIVATE_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(n / size) === Math.floor(v4Number(base) / size);
  });
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (no dotted part). */
function v6Groups(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const start = part(head);
  const end = tail === undefined ? [] : part(tail);
  return [...start, ...Array<number>(8 - start.length - end.length).fill(0), ...end];
}

function isPrivateV6(address: string): boolean {
  const g = v6Groups(address);
  const embedded = (hi: number, lo: number) =>
    isPrivateV4([hi >> 8, hi & 255, lo >> 8, lo & 255].join("."));
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(7) && g[7]! <= 1) return true; // :: and ::1
  if ((g[0]! & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xffc0) === 0xfec0) return true; // link/site-local
  if ((g[0]! & 0xff00) === 0xff00) return true; // multicast
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return embedded(g[6]!, g[7]!); // mapped, compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  return false;
}

/** Whether `hostname` (a URL's, as the URL parser normalizes it) is a private or loopback host. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host.startsWith("[") && host.endsWith("]")) return isPrivateV6(host.slice(1, -1));
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return isPrivateV4(host);
  return false;
}

/**
 * The check of every URL the OAuth client fetches: a private or loopback host is refused
 * unless the MCP server is on one itself (a local or intranet deployment, and tests),
 * `allowPrivateNetwork` is set, or the app named its origin (`trusted`: the issuers of its
 * pre-registered credentials, its enterprise IdP).
 */
export function privateNetworkGuard(
  serverUrl: URL,
  allowPrivateNetwork: boolean,
  trusted: readonly string[],
): (url: URL) => void {
  if (allowPrivateNetwork || isPrivateHost(serverUrl.hostname)) return () => undefined;
  const origins = new Set(trusted.flatMap((t) => (URL.canParse(t) ? [new URL(t).origin] : [])));
  return (url) => {
    if (isPrivateHost(url.hostname) && !origins.has(url.origin))
      throw new AuthorizationError(
        `${url.origin} is a private or loopback address and the MCP server is not: refused (allowPrivateNetwork: true allows it, for development)`,
      );
  };
}
