import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, headless, as the sections that drive a browser launch it. The machine has no
 * network but the registries: without these flags Chromium keeps calling home during a measurement.
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}
