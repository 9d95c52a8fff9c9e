import type { TypeRef } from '../contract/types';

/** The ids a call touched, by kind, for the audit trail (repeated ids are merged when it is written). */
export interface TouchedRecords {
  readonly student: number[];
  readonly teacher: number[];
  readonly class: number[];
}

export function noneTouched(): TouchedRecords {
  return { student: [], teacher: [], class: [] };
}

/** The result fields that name a record, by their element name in the WSDL. */
const KIND_OF_FIELD: Readonly<Record<string, keyof TouchedRecords>> = {
  StudentId: 'student',
  TeacherId: 'teacher',
  ClassId: 'class',
};

/** Adds every student, teacher and class id the result shows, walking it by its WSDL type. */
export function collectTouched(type: TypeRef, value: unknown, touched: TouchedRecords): void {
  if (value === null || value === undefined || type.kind === 'primitive') return;
  if (type.kind === 'array') {
    for (const item of value as readonly unknown[]) collectTouched(type.item, item, touched);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const field of type.fields) {
    const kind = KIND_OF_FIELD[field.element];
    const fieldValue = record[field.property];
    if (kind !== undefined && typeof fieldValue === 'number') touched[kind].push(fieldValue);
    else collectTouched(field.type, fieldValue, touched);
  }
}
