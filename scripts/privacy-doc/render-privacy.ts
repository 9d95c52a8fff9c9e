import {
  type ColumnDeclaration,
  type ErasureRule,
  erasureRule,
  type KeptFileDeclaration,
  type TableDeclaration,
} from '../../src/store/privacy/declaration-types';
import { PERSONAL_DATA } from '../../src/store/privacy/declarations';
import { KEPT_FILES } from '../../src/store/privacy/kept-files';

/** The page the declarations are written into, between its markers; the guide around them is written by hand. */
export const PRIVACY_DOC_PATH = 'docs/privacy.md';
export const GENERATED_START = '<!-- generated from src/store/privacy/ by npm run docs:privacy: do not edit below -->';
export const GENERATED_END = '<!-- end of the generated part -->';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function personalColumns(columns: Readonly<Record<string, ColumnDeclaration>>): string {
  const listed = Object.entries(columns).flatMap(([name, column]) =>
    typeof column === 'string' ? [] : [`\`${name}\`: ${column.what} (${column.whose})`],
  );
  return listed.length === 0 ? 'none' : listed.join('; ');
}

function ruleText(rule: ErasureRule | undefined): string {
  if (rule === undefined) return 'deleted';
  return 'keep' in rule ? `kept: ${rule.keep}` : `kept, emptied: ${rule.empty}`;
}

/** What an erasure does with the table's rows about an erased student (and their guardians), and a teacher. */
function onErasure(declaration: TableDeclaration<Record<string, unknown>>): string {
  const about = declaration.about;
  const child = about?.student || about?.guardian ? ruleText(erasureRule(declaration, 'student')) : undefined;
  const teacher = about?.teacher ? ruleText(erasureRule(declaration, 'teacher')) : undefined;
  if (teacher === undefined || teacher === child) return child ?? 'no rows about one child';
  return child === undefined ? `a teacher's: ${teacher}` : `a student's: ${child}; a teacher's: ${teacher}`;
}

function tableRow(name: string, declaration: TableDeclaration<Record<string, unknown>>): string {
  const { holds, why, kept, columns } = declaration;
  const cells = [holds, personalColumns(columns), why, kept, onErasure(declaration)];
  return `| \`${name}\` | ${cells.map(cell).join(' | ')} |`;
}

function fileRow(file: KeptFileDeclaration): string {
  const whose = file.whose.length === 0 ? 'nobody' : file.whose.join(', ');
  const cells = [file.where, `${file.holds} (${whose})`, file.why, file.kept, file.onErasure];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** The generated part: one row per table of the store and per file the service keeps. */
export function renderDeclarations(): string {
  const tables = Object.entries(PERSONAL_DATA) as Array<[string, TableDeclaration<Record<string, unknown>>]>;
  return [
    GENERATED_START,
    '',
    '### Tables',
    '',
    '| Table | A row is | Personal columns (whose) | Why it is kept | For how long | On erasure |',
    '|---|---|---|---|---|---|',
    ...tables.map(([name, declaration]) => tableRow(name, declaration)),
    '',
    '### Files',
    '',
    '| File | What it holds (whose) | Why | For how long | On erasure |',
    '|---|---|---|---|---|',
    ...KEPT_FILES.map(fileRow),
    '',
    GENERATED_END,
  ].join('\n');
}

/** The page with its generated part written anew from the declarations; the rest as it was. */
export function renderPrivacyDoc(current: string): string {
  const start = current.indexOf(GENERATED_START);
  const end = current.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error(`${PRIVACY_DOC_PATH} has lost its markers of the generated part`);
  return current.slice(0, start) + renderDeclarations() + current.slice(end + GENERATED_END.length);
}
