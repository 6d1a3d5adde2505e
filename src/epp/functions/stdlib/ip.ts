/**
 * stdlib's IP address functions, enclose_ipv6 and stdlib::ip_in_range, on a port of the part of Ruby's
 * IPAddr (ipaddr.rb, Ruby 3.1) they use: parsing (`a.b.c.d`, full and `::`-compressed IPv6 with an
 * optional IPv4 tail, `[...]`, a `%zone`, a `/prefix` or `/mask` that masks the address), `to_s` and
 * `include?`.
 */
import { EppEvalError } from '../../errors.js';
import type { Value } from '../../runtime/values.js';
import { argumentMismatch, puppetType } from '../arguments.js';
import { defineFunction, type FunctionDef } from '../registry.js';
import { rubyToS } from '../ruby-text.js';
import { runtime3 } from '../runtime3.js';
import { rubyClass } from './ruby.js';
import { parseError } from './support.js';

interface IpAddr {
  readonly v6: boolean;
  readonly addr: bigint;
  readonly mask: bigint;
  readonly zone: string;
}

/**
 * IPAddr's errors. Ruby ends them with `@addr`: empty while parsing (it is not set yet), the address as
 * an integer while masking.
 */
class InvalidAddress extends Error {}

const IN4MASK = 0xffffffffn;
const IN6MASK = (1n << 128n) - 1n;

const IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
const IPV6_FULL = /^(?:(?:[\da-f]{1,4}:){7}[\da-f]{1,4}|((?:[\da-f]{1,4}:){6})(\d+)\.(\d+)\.(\d+)\.(\d+))$/i;
const IPV6_COMPRESSED =
  /^((?:(?:[\da-f]{1,4}:)*[\da-f]{1,4})?)::(((?:[\da-f]{1,4}:)*)(?:[\da-f]{1,4}|(\d+)\.(\d+)\.(\d+)\.(\d+))?)$/i;

function octets(parts: readonly string[]): bigint {
  let n = 0n;
  for (const part of parts) {
    if (Number(part) >= 256) throw new InvalidAddress('invalid address: ');
    if (/^0./.test(part)) throw new InvalidAddress('zero-filled number in IPv4 address is ambiguous: ');
    n = (n << 8n) | BigInt(part);
  }
  return n;
}

function colonCount(s: string): number {
  return s.split(':').length - 1;
}

/** IPAddr#in6_addr: groups left and right of `::`, zeros between, an IPv4 tail in the low 32 bits. */
function ipv6Value(text: string): bigint {
  let left: string;
  let right: string;
  let tail = 0n;
  const full = IPV6_FULL.exec(text);
  const compressed = full ? null : IPV6_COMPRESSED.exec(text);
  if (full) {
    if (full[2] !== undefined) tail = octets(full.slice(2, 6) as string[]);
    left = full[2] !== undefined ? `${full[1]}:` : text;
    right = '';
  } else if (compressed) {
    const [, head = '', rest = '', restGroups = ''] = compressed;
    if (compressed[4] !== undefined) {
      if (colonCount(text) > 6) throw new InvalidAddress('invalid address: ');
      tail = octets(compressed.slice(4, 8) as string[]);
      left = head;
      right = `${restGroups}0:0`;
    } else {
      if (colonCount(text) > (head === '' || rest === '' ? 8 : 7))
        throw new InvalidAddress('invalid address: ');
      left = head;
      right = rest;
    }
  } else {
    throw new InvalidAddress('invalid address: ');
  }
  // Ruby's `split(':')` drops trailing empty fields.
  const split = (s: string) =>
    s.split(':').filter((g, i, all) => g !== '' || all.slice(i).some((x) => x !== ''));
  const l = split(left);
  const r = split(right);
  const zeros = 8 - l.length - r.length;
  if (zeros < 0) throw new InvalidAddress('invalid address: ');
  let n = 0n;
  for (const group of [...l, ...Array<string>(zeros).fill('0'), ...r]) {
    n = (n << 16n) | BigInt(`0x${group === '' ? '0' : group}`);
  }
  return n | tail;
}

/** IPAddr#mask!: a prefix length, or a mask address whose bits are contiguous. */
function applyMask(ip: IpAddr, spec: string): IpAddr {
  const bits = ip.v6 ? 128n : 32n;
  const all = ip.v6 ? IN6MASK : IN4MASK;
  let mask: bigint;
  if (/^(0|[1-9]+\d*)$/.test(spec)) {
    const length = BigInt(spec);
    if (length > bits) throw new InvalidAddress(`invalid length: ${ip.addr}`);
    mask = (all >> (bits - length)) << (bits - length);
  } else if (/^\d+$/.test(spec)) {
    throw new InvalidAddress('leading zeros in prefix');
  } else {
    const m = parseIp(spec);
    if (m.v6 !== ip.v6) throw new InvalidAddress(`address family is not same: ${ip.addr}`);
    const inverted = m.addr ^ m.mask;
    if (((inverted + 1n) & inverted) !== 0n) throw new InvalidAddress(`invalid mask ${spec}: ${ip.addr}`);
    mask = m.addr;
  }
  return { ...ip, addr: ip.addr & mask, mask };
}

/** `IPAddr.new(text)`. */
function parseIp(text: string): IpAddr {
  const slash = text.indexOf('/');
  let prefix = slash < 0 ? text : text.slice(0, slash);
  let v6Only = false;
  const bracketed = /^\[(.*)\]$/s.exec(prefix);
  if (bracketed) {
    prefix = bracketed[1]!;
    v6Only = true;
  }
  let zone = '';
  const zoned = /^(.*)(%[A-Za-z0-9_]+)$/s.exec(prefix);
  if (zoned) {
    prefix = zoned[1]!;
    zone = zoned[2]!;
    v6Only = true;
  }
  const v4 = v6Only ? null : IPV4.exec(prefix);
  const ip: IpAddr = v4
    ? { v6: false, addr: octets(v4.slice(1, 5) as string[]), mask: IN4MASK, zone: '' }
    : { v6: true, addr: ipv6Value(prefix), mask: IN6MASK, zone };
  return slash < 0 ? ip : applyMask(ip, text.slice(slash + 1));
}

/** IPAddr#to_s: dotted IPv4, or IPv6 with leading zeros dropped and the first run of zero groups as `::`. */
function ipToString(ip: IpAddr): string {
  if (!ip.v6) return [24n, 16n, 8n, 0n].map((shift) => String((ip.addr >> shift) & 0xffn)).join('.');
  const groups = [...Array(8).keys()].map((i) => ((ip.addr >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  let s = groups.join(':');
  for (let run = 8; run >= 2; run--) {
    const zeros = Array<string>(run).fill('0').join(':');
    const pattern = run === 8 ? /^0:0:0:0:0:0:0:0$/ : new RegExp(`\\b${zeros}\\b`);
    if (pattern.test(s)) {
      s = s.replace(pattern, run === 8 ? '::' : ':');
      break;
    }
  }
  s = s.replace(/:{3,}/, '::');
  const mapped = /^::(ffff:)?([\da-f]{1,4}):([\da-f]{1,4})$/i.exec(s);
  if (mapped) {
    const hi = Number.parseInt(mapped[2]!, 16);
    const lo = Number.parseInt(mapped[3]!, 16);
    s = `::${mapped[1] ?? ''}${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return s + ip.zone;
}

/** IPAddr#include?: same family, and `inner`'s range inside `outer`'s. */
function ipIncludes(outer: IpAddr, inner: IpAddr): boolean {
  if (outer.v6 !== inner.v6) return false;
  const all = outer.v6 ? IN6MASK : IN4MASK;
  const start = (ip: IpAddr) => ip.addr & ip.mask;
  const end = (ip: IpAddr) => ip.addr | (all ^ ip.mask);
  return start(outer) <= start(inner) && end(outer) >= end(inner);
}

function flattenCompact(values: readonly Value[]): Value[] {
  return values.flatMap((v) => (Array.isArray(v) ? flattenCompact(v) : v === undefined ? [] : [v]));
}

const encloseIpv6 = defineFunction('enclose_ipv6', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
  if (args.length !== 1)
    throw parseError('enclose_ipv6', `Wrong number of arguments given ${args.length} for 1`);
  const [arg] = args;
  if (typeof arg !== 'string' && !Array.isArray(arg)) {
    throw parseError('enclose_ipv6', `Wrong argument type given ${rubyClass(arg)} expected String or Array`);
  }
  const out: Value[] = [];
  for (const value of flattenCompact([arg])) {
    let result = value;
    if (value !== '*') {
      let ip: IpAddr;
      try {
        if (typeof value !== 'string') throw new InvalidAddress('address family must be specified');
        ip = parseIp(value);
      } catch (e) {
        if (!(e instanceof InvalidAddress)) throw e;
        throw parseError('enclose_ipv6', `Wrong argument given ${rubyToS(value)} is not an ip address.`);
      }
      if (ip.v6) result = `[${ipToString(ip)}]`;
    }
    // Ruby's `uniq`.
    if (!out.includes(result)) out.push(result);
  }
  return out;
});

const RANGE = puppetType('Variant', puppetType('String'), puppetType('Array'));

function ipArg(v: Value): IpAddr {
  try {
    if (typeof v !== 'string') throw new InvalidAddress('address family must be specified');
    return parseIp(v);
  } catch (e) {
    if (e instanceof InvalidAddress) throw new EppEvalError('EPP_ARGUMENTS', e.message);
    throw e;
  }
}

const ipInRange = defineFunction('stdlib::ip_in_range', 2, 2, (_ctx, [address, range]) => {
  if (typeof address !== 'string') {
    throw argumentMismatch('stdlib::ip_in_range', 'ipaddress', puppetType('String'), address);
  }
  if (!RANGE.isInstance(range)) throw argumentMismatch('stdlib::ip_in_range', 'range', RANGE, range);
  const ip = ipArg(address);
  const ranges = (Array.isArray(range) ? range : [range]).map(ipArg);
  return ranges.some((r) => ipIncludes(r, ip));
});

export const stdlibIpFunctions: FunctionDef[] = [runtime3(encloseIpv6), ipInRange];
