/**
 * The OneRoster 1.2 REST binding's JSON shapes of the records this service serves, as a small
 * schema per record (required members, and each member's type) and a checker of a record against
 * it: what a conformance test asserts of every answer. Members the binding marks optional are
 * checked for type when present; members the binding does not name are allowed (its extension
 * point is `metadata`, and a consumer ignores others).
 */
type MemberType =
  | 'string'
  | 'date'
  | 'dateTime'
  | 'boolean'
  | 'number'
  | 'ref'
  | 'refs'
  | 'strings'
  | 'object'
  | 'scaleValues';

interface RecordSchema {
  readonly required: readonly string[];
  readonly members: Readonly<Record<string, MemberType | readonly string[]>>;
}

const STATUS = ['active', 'tobedeleted'];
const BASE = { sourcedId: 'string', status: STATUS, dateLastModified: 'dateTime', metadata: 'object' } as const;
const BASE_REQUIRED = ['sourcedId', 'status', 'dateLastModified'];

export const ONEROSTER_12_SCHEMAS: Readonly<Record<string, RecordSchema>> = {
  org: {
    required: [...BASE_REQUIRED, 'name', 'type'],
    members: {
      ...BASE,
      name: 'string',
      type: ['department', 'school', 'district', 'local', 'state', 'national'],
      identifier: 'string',
      parent: 'ref',
      children: 'refs',
    },
  },
  academicSession: {
    required: [...BASE_REQUIRED, 'title', 'startDate', 'endDate', 'type', 'schoolYear'],
    members: {
      ...BASE,
      title: 'string',
      startDate: 'date',
      endDate: 'date',
      type: ['gradingPeriod', 'semester', 'schoolYear', 'term'],
      parent: 'ref',
      children: 'refs',
      schoolYear: 'string',
    },
  },
  course: {
    required: [...BASE_REQUIRED, 'title', 'org'],
    members: { ...BASE, title: 'string', courseCode: 'string', grades: 'strings', org: 'ref', schoolYear: 'ref' },
  },
  class: {
    required: [...BASE_REQUIRED, 'title', 'course', 'school', 'terms'],
    members: {
      ...BASE,
      title: 'string',
      classCode: 'string',
      classType: ['homeroom', 'scheduled'],
      location: 'string',
      grades: 'strings',
      subjects: 'strings',
      course: 'ref',
      school: 'ref',
      terms: 'refs',
      periods: 'strings',
    },
  },
  user: {
    required: [...BASE_REQUIRED, 'enabledUser', 'givenName', 'familyName', 'roles'],
    members: {
      ...BASE,
      username: 'string',
      enabledUser: 'boolean',
      givenName: 'string',
      familyName: 'string',
      middleName: 'string',
      roles: 'object',
      identifier: 'string',
      email: 'string',
      sms: 'string',
      phone: 'string',
      agents: 'refs',
      primaryOrg: 'ref',
      grades: 'strings',
    },
  },
  enrollment: {
    required: [...BASE_REQUIRED, 'role', 'user', 'class', 'school'],
    members: {
      ...BASE,
      role: ['administrator', 'proctor', 'student', 'teacher', 'aide', 'guardian', 'parent'],
      primary: 'boolean',
      beginDate: 'date',
      endDate: 'date',
      user: 'ref',
      class: 'ref',
      school: 'ref',
    },
  },
  category: { required: [...BASE_REQUIRED, 'title'], members: { ...BASE, title: 'string', weight: 'number' } },
  lineItem: {
    required: [...BASE_REQUIRED, 'title', 'assignDate', 'dueDate', 'class'],
    members: {
      ...BASE,
      title: 'string',
      description: 'string',
      assignDate: 'dateTime',
      dueDate: 'dateTime',
      class: 'ref',
      school: 'ref',
      category: 'ref',
      gradingPeriod: 'ref',
      academicSession: 'ref',
      resultValueMin: 'number',
      resultValueMax: 'number',
      scoreScale: 'ref',
    },
  },
  result: {
    required: [...BASE_REQUIRED, 'lineItem', 'student', 'scoreStatus', 'scoreDate'],
    members: {
      ...BASE,
      lineItem: 'ref',
      student: 'ref',
      score: 'number',
      textScore: 'string',
      scoreStatus: ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'],
      scoreDate: 'dateTime',
      comment: 'string',
      scoreScale: 'ref',
    },
  },
  scoreScale: {
    required: [...BASE_REQUIRED, 'title', 'type', 'scoreScaleValue'],
    members: { ...BASE, title: 'string', type: 'string', course: 'ref', class: 'ref', scoreScaleValue: 'scaleValues' },
  },
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

const isRef = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).sourcedId === 'string' &&
  typeof (value as Record<string, unknown>).href === 'string' &&
  typeof (value as Record<string, unknown>).type === 'string';

function fits(type: MemberType | readonly string[], value: unknown): boolean {
  if (Array.isArray(type)) return type.includes(value as string);
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'date':
      return typeof value === 'string' && DATE.test(value);
    case 'dateTime':
      return typeof value === 'string' && DATE_TIME.test(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'ref':
      return isRef(value);
    case 'refs':
      return Array.isArray(value) && value.every(isRef);
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'object':
      return typeof value === 'object' && value !== null;
    case 'scaleValues':
      return (
        Array.isArray(value) &&
        value.length > 0 &&
        value.every((entry) => typeof entry?.itemValueLHS === 'string' && typeof entry?.itemValueRHS === 'string')
      );
  }
  return false;
}

/** The problems of a record against the schema of `kind` (`user`), each naming its member; none when it fits. */
export function schemaProblems(kind: string, record: Readonly<Record<string, unknown>>): string[] {
  const schema = ONEROSTER_12_SCHEMAS[kind];
  if (!schema) return [`no schema for ${kind}`];
  const problems: string[] = [];
  for (const member of schema.required) if (record[member] === undefined) problems.push(`${kind}.${member}: missing`);
  for (const [member, type] of Object.entries(schema.members)) {
    const value = record[member];
    if (value !== undefined && !fits(type, value)) problems.push(`${kind}.${member}: ${JSON.stringify(value)}`);
  }
  return problems;
}
