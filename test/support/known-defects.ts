/**
 * Where the generated schools of the property tests are narrowed around a defect being fixed: each
 * flag keeps the generators from making what the defect breaks. A flag set to false generates the
 * whole truth again; once every one is false this object can go. KNOWN_DEFECTS_OFF (flags by name,
 * comma-separated) switches some off for one run, to see a property find its defect.
 */
const NARROWED = {
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a delta that takes a scheduled class's last
  // pupil leaves the class on that pupil's section (bulk: the section of its grade), and one that takes
  // the last scheduled class of a pupil without a homeroom leaves the pupil's inferred enrolment record.
  lastScheduledEnrolment: true,
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a delta that lists a guardian (or a student)
  // restates their links from their own agentSourcedIds alone: links only the other side names are
  // dropped (bulk takes the union of both sides). Narrowed: guardians name their children too.
  oneSidedGuardianLinks: true,
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a second scheduled class of one subject in
  // one section is stored as the first under another name, but that name is not in the ledger: a
  // delta that lists the second class places it anew (in a section of its grade); and a teacher of
  // both is assigned twice (i33-export's double assignment may cover this).
  secondClassOfSubjectInSection: true,
} as const;

const switchedOff = new Set((process.env.KNOWN_DEFECTS_OFF ?? '').split(','));

export const KNOWN_DEFECTS: { readonly [Flag in keyof typeof NARROWED]: boolean } = Object.fromEntries(
  Object.entries(NARROWED).map(([flag, narrowed]) => [flag, narrowed && !switchedOff.has(flag)]),
) as { [Flag in keyof typeof NARROWED]: boolean };
