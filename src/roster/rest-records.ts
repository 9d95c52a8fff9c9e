/**
 * The REST binding's JSON record of a bundle row (OneRoster 1.1 or 1.2): the CSV -> JSON direction
 * of the mapping, used by the OneRoster provider to answer and by the tests' stand-in provider to
 * serve a SIS. References become `{href, sourcedId, type}`, lists arrays, numbers and booleans
 * their JSON types, `metadata.*` columns a `metadata` object; in 1.2 a user's role and orgs become
 * `roles` (one per org, the first primary) and `primaryOrg`.
 */
export type Json = Record<string, unknown>;

export type RestVersion = '1.1' | '1.2';

/** dateLastModified of every record a bundle row gives without one. */
export const BASE_MODIFIED = '2026-09-01T00:00:00.000Z';

const REFS: Record<string, [field: string, type: string]> = {
  parentSourcedId: ['parent', 'org'],
  courseSourcedId: ['course', 'course'],
  schoolSourcedId: ['school', 'org'],
  orgSourcedId: ['org', 'org'],
  schoolYearSourcedId: ['schoolYear', 'academicSession'],
  classSourcedId: ['class', 'class'],
  userSourcedId: ['user', 'user'],
  categorySourcedId: ['category', 'category'],
  gradingPeriodSourcedId: ['gradingPeriod', 'academicSession'],
  lineItemSourcedId: ['lineItem', 'lineItem'],
  studentSourcedId: ['student', 'user'],
  scoreScaleSourcedId: ['scoreScale', 'scoreScale'],
};
const REF_LISTS: Record<string, [field: string, type: string]> = {
  termSourcedIds: ['terms', 'academicSession'],
  orgSourcedIds: ['orgs', 'org'],
  agentSourcedIds: ['agents', 'user'],
};
const LISTS = new Set(['grades', 'subjects', 'subjectCodes', 'periods']);
const NUMBERS = new Set(['score', 'resultValueMin', 'resultValueMax']);
const DATE_TIMES = new Set(['assignDate', 'dueDate']);
/** An enrolment's dates, which the binding makes optional. */
const OPTIONAL_DATES = new Set(['beginDate', 'endDate']);

const ref = (sourcedId: string, type: string) => ({ href: `/${type}s/${sourcedId}`, sourcedId, type });

/**
 * A scale's `{LHS:RHS}` pairs of the CSV binding (`{A:90},{B:80}`) as the REST binding's
 * scoreScaleValue entries: the text on the left, what it stands for on the right (split at the
 * last colon, so that a left side may hold one).
 */
function scaleEntries(field: string): Json[] {
  return (field.match(/\{[^{}]*\}/g) ?? []).flatMap((pair) => {
    const inner = pair.slice(1, -1);
    const colon = inner.lastIndexOf(':');
    if (colon < 0) return [];
    return [{ itemValueLHS: inner.slice(0, colon).trim(), itemValueRHS: inner.slice(colon + 1).trim() }];
  });
}

/** A bundle row as the REST binding's JSON record of `collection`, for OneRoster `version`. */
export function recordOf(collection: string, row: Record<string, string>, version: RestVersion): Json {
  return recordMaker(collection, Object.keys(row), version)(Object.values(row));
}

type Setter = (record: Json, value: string, metadata: Json) => void;

function referenceSetter(column: string): Setter | undefined {
  const single = REFS[column];
  if (single) {
    return (record, value) => {
      if (value !== '') record[single[0]] = ref(value, single[1]);
    };
  }
  const list = REF_LISTS[column];
  if (list) {
    return (record, value) => {
      record[list[0]] = value === '' ? [] : value.split(',').map((id) => ref(id, list[1]));
    };
  }
  return undefined;
}

/** How one CSV column goes into the JSON record. */
function setterOf(column: string, version: RestVersion): Setter | undefined {
  if (['sourcedId', 'status', 'dateLastModified'].includes(column)) return undefined;
  if (column.startsWith('metadata.')) {
    const name = column.slice('metadata.'.length);
    return (_record, value, metadata) => {
      metadata[name] = value;
    };
  }
  const reference = referenceSetter(column);
  if (reference) return reference;
  if (LISTS.has(column)) {
    return (record, value) => {
      record[column] = value === '' ? [] : value.split(',');
    };
  }
  // A number the row leaves empty is absent: a 1.2 result without a score has none.
  if (NUMBERS.has(column)) {
    return (record, value) => {
      if (value !== '') record[column] = Number(value);
    };
  }
  if (column === 'scoreScaleValue') {
    return (record, value) => {
      record[column] = scaleEntries(value);
    };
  }
  if (DATE_TIMES.has(column)) {
    return (record, value) => {
      record[column] = value === '' || value.includes('T') ? value : `${value}T00:00:00.000Z`;
    };
  }
  // An optional date the row leaves empty is absent: the binding's "" is no date.
  if (OPTIONAL_DATES.has(column)) {
    return (record, value) => {
      if (value !== '') record[column] = value;
    };
  }
  if (column === 'primary' || (column === 'enabledUser' && version === '1.2')) {
    return (record, value) => {
      record[column] = value === 'true';
    };
  }
  return (record, value) => {
    record[column] = value;
  };
}

/**
 * The maker of the JSON records of the rows of one file (their values in the order of `columns`):
 * how each column maps is worked out once, not for each of a large school's rows.
 */
export function recordMaker(
  collection: string,
  columns: readonly string[],
  version: RestVersion,
): (values: readonly string[]) => Json {
  const setters = columns.map((column) => setterOf(column, version));
  const at = (name: string) => columns.indexOf(name);
  const [sourcedIdAt, statusAt, modifiedAt, roleAt] = [
    at('sourcedId'),
    at('status'),
    at('dateLastModified'),
    at('role'),
  ];
  return (values) => {
    const record: Json = {
      sourcedId: values[sourcedIdAt],
      status: values[statusAt] || 'active',
      dateLastModified: values[modifiedAt] || BASE_MODIFIED,
    };
    const metadata: Json = {};
    for (let index = 0; index < setters.length; index += 1) setters[index]?.(record, values[index] ?? '', metadata);
    if (Object.keys(metadata).length > 0) record.metadata = metadata;
    if (collection === 'users' && version === '1.2') {
      // 1.2 has no role or orgs on a user: roles, one per org, the first primary.
      const orgs = (record.orgs as Json[] | undefined) ?? [];
      const role = roleAt < 0 ? undefined : values[roleAt];
      record.roles = orgs.map((org, index) => ({ roleType: index === 0 ? 'primary' : 'secondary', role, org }));
      record.primaryOrg = orgs[0];
      delete record.role;
      delete record.orgs;
    }
    return record;
  };
}
