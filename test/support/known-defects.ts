/**
 * Where the generated schools of the property tests are narrowed around a defect being fixed: each
 * flag keeps the generators from making what the defect breaks. A flag set to false generates the
 * whole truth again; once every one is false this object can go. KNOWN_DEFECTS_OFF (flags by name,
 * comma-separated) switches some off for one run, to see a property find its defect.
 */
const NARROWED = {
  // KNOWN-DEFECT: a delta that takes a scheduled class's last
  // pupil leaves the class on that pupil's section (bulk: the section of its grade), and one that takes
  // the last scheduled class of a pupil without a homeroom leaves the pupil's inferred enrolment record.
  lastScheduledEnrolment: true,
  // KNOWN-DEFECT: a teacher of two schools that a district's delta sync (SIS_SCHOOL) lists is kept
  // with this school's org alone in orgSourcedIds (the delta names no org of the other school), where
  // a bulk import with --school keeps both: the kept fields differ, the records do not.
  sharedTeacherInDistrictDelta: true,
} as const;

const switchedOff = new Set((process.env.KNOWN_DEFECTS_OFF ?? '').split(','));

export const KNOWN_DEFECTS: { readonly [Flag in keyof typeof NARROWED]: boolean } = Object.fromEntries(
  Object.entries(NARROWED).map(([flag, narrowed]) => [flag, narrowed && !switchedOff.has(flag)]),
) as { [Flag in keyof typeof NARROWED]: boolean };
