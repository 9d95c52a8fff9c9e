/**
 * The columns of OneRoster CSV files, in the binding's order, for every side that writes or reads
 * them (the 1.2 export, the REST sync's spooled bundle, the roles reader's required columns).
 */

/** roles.csv (OneRoster 1.2 CSV binding, the roles.csv table). */
export const ROLES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'userSourcedId',
  'roleType',
  'role',
  'beginDate',
  'endDate',
  'orgSourcedId',
  'userProfileSourcedId',
] as const;
