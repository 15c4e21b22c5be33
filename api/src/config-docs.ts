import { documentedDefault, SETTING_GROUPS, SETTINGS, type Setting, type SettingGroup } from './config-schema';

/** Where the generated reference lives, from the repository's root. */
export const CONFIGURATION_DOC = 'docs/configuration.md';
export const CONFIGURATION_DOC_COMMAND = 'npm run docs:config';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/configuration.md, rendered from SETTINGS: one section per group, each variable with its default and meaning. */
export function renderConfigurationDoc(settings: Record<string, Setting> = SETTINGS): string {
  const lines = [
    '# Configuration',
    '',
    `<!-- Generated from api/src/config-schema.ts by \`${CONFIGURATION_DOC_COMMAND}\`: edit the table there, not this file. -->`,
    '',
    'The server reads these environment variables once, when it starts (`loadConfig` in api/src/config.ts). An empty',
    'value counts as unset. An invalid value stops the start with one message naming every invalid variable and why.',
    'Every one may be left unset: the defaults are a working local site on SQLite. Set `ADMIN_PASSWORD_HASH` (or',
    '`ADMIN_PASSWORD`) to sign in to the admin, and `WEBHOOK_SECRET` to receive posts from the webhook.',
    '',
  ];
  for (const [group, title] of Object.entries(SETTING_GROUPS) as [SettingGroup, string][]) {
    const rows = Object.entries(settings).filter(([, setting]) => setting.group === group);
    if (rows.length === 0) continue;
    lines.push(`## ${title}`, '', '| Variable | Default | Meaning |', '|---|---|---|');
    for (const [name, setting] of rows) lines.push(`| \`${name}\` | ${cell(documentedDefault(setting))} | ${cell(setting.meaning)} |`);
    lines.push('');
  }
  lines.push(
    '## Read elsewhere',
    '',
    '- The deploy tools (`npm run deploy`, `rollback`, `promote`, and the one-file tool the site serves at',
    "  `/site-deploy.mjs`) read `DEPLOY_TOKEN` and `RELEASE_SIGNING_KEY`, the one-file tool also `SITE_URL`, on the",
    "  machine they run on (a team's CI). `npm run deploy` judges a release by the `APP_ROUTES_*` and `RELEASE_MAX_*` above.",
    '- The marketing remote reads `VITE_BOOKING_URL` and `VITE_CALENDAR_URL` when it is built (defaults in',
    '  packages/ui/src/site.ts).',
    '',
  );
  return lines.join('\n');
}
