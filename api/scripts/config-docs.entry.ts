// Writes docs/configuration.md from the settings table (api/src/config-schema.ts): `npm run docs:config`.
// api/src/__tests__/config-docs.test.ts fails while the file differs from what this writes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIGURATION_DOC, renderConfigurationDoc } from '../src/config-docs';

// npm runs scripts from the repository's root.
const file = path.resolve(CONFIGURATION_DOC);
writeFileSync(file, renderConfigurationDoc());
console.log(`wrote ${file}`);
