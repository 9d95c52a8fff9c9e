/**
 * Where the generated schools of the property tests are narrowed around a defect being fixed: each
 * flag keeps the generators from making what the defect breaks. A flag set to false generates the
 * whole truth again; once every one is false this object can go. KNOWN_DEFECTS_OFF (flags by name,
 * comma-separated) switches some off for one run, to see a property find its defect.
 */
const NARROWED = {
  // KNOWN-DEFECT: a delta that takes a pupil out of a scheduled class that a bulk import made one
  // with another class of its subject in one section (stored as that class's other name) places
  // the one record again, where a bulk import of the changed school may place the two classes
  // apart (each from its own pupils, the first in the file keeping the record).
  pupilOfMergedClass: true,
} as const;

const switchedOff = new Set((process.env.KNOWN_DEFECTS_OFF ?? '').split(','));

export const KNOWN_DEFECTS: { readonly [Flag in keyof typeof NARROWED]: boolean } = Object.fromEntries(
  Object.entries(NARROWED).map(([flag, narrowed]) => [flag, narrowed && !switchedOff.has(flag)]),
) as { [Flag in keyof typeof NARROWED]: boolean };
