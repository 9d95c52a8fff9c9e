/**
 * Generates src/contract/operation-types.ts from the typed WSDL files.
 *
 *   npm run contract:types
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../src/contract/catalog';
import { WSDL_DIRECTORY } from '../src/contract/wsdl-directory';
import { CONTRACT_TYPES_PATH, renderContractTypes } from './contract-types/render-types';

async function main(): Promise<void> {
  const target = join(__dirname, '..', CONTRACT_TYPES_PATH);
  writeFileSync(target, renderContractTypes(await loadCatalog(WSDL_DIRECTORY)));
  process.stdout.write(`wrote ${CONTRACT_TYPES_PATH}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`contract:types: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
