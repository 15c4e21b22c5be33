import { existsSync } from 'node:fs';

/** Debian's old headless shell (package chromium-headless-shell): the same Blink and V8 as chromium, without the full browser. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/**
 * The browser the tests drive: Debian's headless shell when it is installed (`npm test` installs it beside chromium:
 * the same engine, about a third less CPU per test on our 2-core machines), else Debian's chromium; `CHROMIUM_PATH`
 * picks another binary. Never a downloaded browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : '/usr/bin/chromium');
/** The flags that work on our machines. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
