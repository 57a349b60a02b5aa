import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

/** Debian's Chromium, headless, as the sections that drive a browser launch it. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}
