import { MAX_TEXT_LENGTH } from '../fields';
import type { AsyncRowsOf } from './collection';
import {
  type FilledRow,
  OWN_COMMON_COLUMNS,
  type OwnFileCollection,
  ownCells,
  streamedRows,
  trueOrFalse,
} from './own-file';

/** devices.csv: a guardian's phone application that push notifications reach. */
const COLUMNS = [
  ...OWN_COMMON_COLUMNS,
  'guardianSourcedId',
  'applicationId',
  'deviceId',
  'pushToken',
  'platform',
  'enabled',
] as const;

type Column = (typeof COLUMNS)[number];

export const devices = {
  name: 'devices',
  table: 'devices',
  columns: COLUMNS,
  required: ['sourcedId', 'guardianSourcedId', 'applicationId', 'deviceId', 'pushToken', 'platform'],
  read: (reader, resolve): FilledRow<'devices'> => ({
    guardian_id: resolve('guardianSourcedId', ['guardians'], 'guardian'),
    application_id: reader.required('applicationId'),
    device_id: reader.required('deviceId'),
    push_token: reader.required('pushToken', MAX_TEXT_LENGTH),
    platform: reader.oneOf('platform', ['android', 'ios'], true),
    enabled: reader.boolean('enabled', false) === false ? 0 : 1,
  }),
  export: {
    reads: { whole: ['guardians'], paged: ['devices'] },
    header: COLUMNS,
    async *rows({ school }): AsyncRowsOf<Column> {
      for await (const row of streamedRows(school, 'devices')) {
        yield {
          guardianSourcedId: school.ref('guardians', row.guardian_id),
          applicationId: row.application_id,
          deviceId: row.device_id,
          pushToken: row.push_token,
          platform: row.platform,
          enabled: trueOrFalse(row.enabled),
          ...ownCells(school, 'devices', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'devices', 'devices', Column>;
