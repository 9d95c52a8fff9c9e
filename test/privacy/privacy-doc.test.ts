import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVACY_DOC_PATH, renderDeclarations, renderPrivacyDoc } from '../../scripts/privacy-doc/render-privacy';
import { ROOT } from '../support/cli';

describe('docs/privacy.md', () => {
  const committed = readFileSync(join(ROOT, PRIVACY_DOC_PATH), 'utf8');

  test(`${PRIVACY_DOC_PATH} holds what npm run docs:privacy writes from the declarations now`, () => {
    expect(committed).toBe(renderPrivacyDoc(committed));
  });

  test('lists every personal column of the students table with whose it is', () => {
    const row = renderDeclarations()
      .split('\n')
      .find((line) => line.startsWith('| `students` |'));
    expect(row).toContain('`birth_date`: birth date (student)');
    expect(row).toContain('`phone`: phone number (student)');
  });
});
