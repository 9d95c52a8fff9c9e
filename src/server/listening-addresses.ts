import type { AddressInfo } from 'node:net';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

function urlOf(address: string, family: string, port: number): string {
  return family === 'IPv6' ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}

/**
 * The addresses a server answers on, as URLs: its own address, or, bound to every interface
 * (0.0.0.0, ::), each address of this machine's interfaces (IPv4 ones for 0.0.0.0, both for ::),
 * so that the start-up line shows where callers reach it rather than "localhost".
 */
export function listeningAddresses(address: AddressInfo, interfaces: Interfaces = networkInterfaces()): string[] {
  const any = address.address === '0.0.0.0' || address.address === '::';
  if (!any) return [urlOf(address.address, address.family, address.port)];
  const found = Object.values(interfaces)
    .flatMap((entries) => entries ?? [])
    .filter((entry) => address.address === '::' || entry.family === 'IPv4')
    // Link-local IPv6 addresses need a zone to be called: not an address to hand out.
    .filter((entry) => !(entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80:')))
    .map((entry) => urlOf(entry.address, entry.family, address.port));
  return [...new Set(found)];
}
