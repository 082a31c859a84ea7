// Writes docs/openapi.json from the route contract in src/shared/routes: `npm run openapi`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiText } from '../src/main/core/http/openapi-document';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
writeFileSync(target, openApiText());
console.log(`wrote ${target}`);
