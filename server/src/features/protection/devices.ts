import { isIP } from 'node:net';
import Bowser from 'bowser';

/**
 * What a person recognises their devices by, read from a request with no outside service: the
 * browser and system from the User-Agent (bowser), and the address block from the address.
 *
 * A block, not an address: an IPv4 /24 or an IPv6 /48, about one network. It is what the list of
 * devices and the leak trace show, and what the sharing-risk list counts, so a phone hopping
 * between addresses of one carrier's block counts once. A city would need a geolocation database
 * (a licence and its updates); a seller who wants one can map blocks to places later.
 */

/** The longest User-Agent kept: real ones are under 300 characters; anything longer is cut. */
export const USER_AGENT_MAX = 300;

export const LOCAL_NETWORK = 'Local network';

export function addressBlockOf(address: string): string {
  const ip = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const kind = isIP(ip);
  if (kind === 4) {
    const [a, b, c] = ip.split('.').map(Number) as [number, number, number];
    if (a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)) return LOCAL_NETWORK;
    return `${a}.${b}.${c}.0/24`;
  }
  if (kind === 6) {
    const groups = expandIpv6(ip.toLowerCase());
    const first = parseInt(groups[0]!, 16);
    // Loopback, unique local (fc00::/7) and link-local (fe80::/10).
    if (ip === '::1' || (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80) return LOCAL_NETWORK;
    return `${groups
      .slice(0, 3)
      .map((group) => group.replace(/^0+(?=.)/, ''))
      .join(':')}::/48`;
  }
  return LOCAL_NETWORK;
}

/** The eight groups of an IPv6 address (`isIP` has checked it), `::` filled in. */
function expandIpv6(ip: string): string[] {
  const withoutZone = ip.split('%')[0]!;
  const [head = '', tail] = withoutZone.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 was handled above; others are rare) counts as two groups.
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.slice(0, 8);
}

export interface DeviceDescription {
  /** "Chrome 131", or "Unknown browser". */
  browser: string;
  /** "Windows 10", "iOS 18.1", or "Unknown system". */
  os: string;
  deviceType: 'mobile' | 'tablet' | 'desktop';
  /** "Chrome on Windows": the short form a refusal and a trace show. */
  summary: string;
}

export function describeDevice(userAgent: string | null | undefined): DeviceDescription {
  const parsed = userAgent ? Bowser.parse(userAgent.slice(0, USER_AGENT_MAX)) : undefined;
  const browserName = parsed?.browser.name;
  const major = parsed?.browser.version?.split('.')[0];
  const osName = parsed?.os.name;
  const osVersion = parsed?.os.versionName ?? parsed?.os.version;
  const type = parsed?.platform.type;
  return {
    browser: browserName ? (major ? `${browserName} ${major}` : browserName) : 'Unknown browser',
    os: osName ? (osVersion ? `${osName} ${osVersion}` : osName) : 'Unknown system',
    deviceType: type === 'mobile' || type === 'tablet' ? type : 'desktop',
    summary: browserName && osName ? `${browserName} on ${osName}` : (browserName ?? osName ?? 'Unknown device'),
  };
}
