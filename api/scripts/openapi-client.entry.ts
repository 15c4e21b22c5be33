// Writes the client types generated from the API description (what a team using openapi-typescript + openapi-fetch
// would generate from GET /api/openapi.json) to api/src/http/__tests__/admin-client/openapi.d.ts:
// `npm run openapi:client`. api/src/http/__tests__/generated-client.test.ts drives the API through them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_ENDPOINTS } from '../src/http/api-routes';
import { apiDescription } from '../src/http/openapi-document';
import { API_VERSION } from '../src/lib/version';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../src/test-support/openapi-client-types';

const description = apiDescription(API_ENDPOINTS, { publicOrigin: 'https://example.test', version: API_VERSION });
// npm runs scripts from the repository's root.
const file = path.resolve(CLIENT_TYPES_FILE);
writeFileSync(file, await generateClientTypes(description));
console.log(`wrote ${file}`);
