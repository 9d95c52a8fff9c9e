import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium, never a downloaded browser. The flags let it run as root in a container
 * without a GPU or a large /dev/shm, and keep it from calling out anywhere but the loopback service.
 */
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
