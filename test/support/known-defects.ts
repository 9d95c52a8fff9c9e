/**
 * Where the generated schools of the property tests are narrowed around a defect being fixed: each
 * flag keeps the generators from making what the defect breaks. A flag set to false generates the
 * whole truth again; once every one is false this object can go. KNOWN_DEFECTS_OFF (flags by name,
 * comma-separated) switches some off for one run, to see a property find its defect.
 */
const NARROWED = {
  // KNOWN-DEFECT(i33-export): the export quotes only CRLF, so a value with a bare LF or CR does not import back.
  bareLineBreaks: true,
  // KNOWN-DEFECT(i33-export): a foreign number is stored with the region's prefix (`+9669503366601`).
  foreignPhoneNumbers: true,
  // KNOWN-DEFECT(i33-export): a `password` column of users.csv is kept (and exported), the sync's is not.
  passwords: true,
  // KNOWN-DEFECT(i33-export): a teacher with one enrolment per term in a class is assigned to it twice.
  teacherEnrolmentPerTerm: true,
  // KNOWN-DEFECT(i33-sync): a delta adds a pupil in scheduled classes only without a class section.
  deltaPupilWithoutHomeroom: true,
  // KNOWN-DEFECT(i33-sync): a district's delta sync (SIS_SCHOOL) drops a result, enrolment or
  // demographics row whose line item, class or user the same delta does not carry. Also (reported
  // by i33-props, no branch yet): a district's delta CSV imported with --school refuses another
  // school's row naming a record the delta does not carry ("names no class in the bundle").
  districtDeltaWithoutParents: true,
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a delta that takes a scheduled class's last
  // pupil leaves the class on that pupil's section (bulk: the section of its grade), and one that takes
  // the last scheduled class of a pupil without a homeroom leaves the pupil's inferred enrolment record.
  lastScheduledEnrolment: true,
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a delta that lists a guardian (or a student)
  // restates their links from their own agentSourcedIds alone: links only the other side names are
  // dropped (bulk takes the union of both sides). Narrowed: guardians name their children too.
  oneSidedGuardianLinks: false,
  // KNOWN-DEFECT(reported by i33-props, no branch yet): a second scheduled class of one subject in
  // one section is stored as the first under another name, but that name is not in the ledger: a
  // delta that lists the second class places it anew (in a section of its grade); and a teacher of
  // both is assigned twice (i33-export's double assignment may cover this).
  secondClassOfSubjectInSection: false,
} as const;

const switchedOff = new Set((process.env.KNOWN_DEFECTS_OFF ?? '').split(','));

export const KNOWN_DEFECTS: { readonly [Flag in keyof typeof NARROWED]: boolean } = Object.fromEntries(
  Object.entries(NARROWED).map(([flag, narrowed]) => [flag, narrowed && !switchedOff.has(flag)]),
) as { [Flag in keyof typeof NARROWED]: boolean };
