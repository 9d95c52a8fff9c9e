import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVACY_DOC_PATH, renderPrivacyDoc } from './privacy-doc/render-privacy';

/** npm run docs:privacy: writes the declarations of personal data into docs/privacy.md. */
const path = join(__dirname, '..', PRIVACY_DOC_PATH);
writeFileSync(path, renderPrivacyDoc(readFileSync(path, 'utf8')));
process.stdout.write(`wrote ${PRIVACY_DOC_PATH}\n`);
