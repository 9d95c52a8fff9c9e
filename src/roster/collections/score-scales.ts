import type { OneRoster12Collection } from './collection';

/**
 * scoreScales.csv (OneRoster 1.2 CSV binding, the scoreScales.csv table): scales that turn a text
 * score into a number (import: score-scales.ts in the folder above, readScoreScales).
 */
export const SCORE_SCALES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'type',
  'orgSourcedId',
  'courseSourcedId',
  'classSourcedId',
  'scoreScaleValue',
] as const;

type Column = (typeof SCORE_SCALES_COLUMNS)[number];

export const scoreScales = {
  name: 'scoreScales',
  columns: SCORE_SCALES_COLUMNS,
  required: ['sourcedId', 'title', 'scoreScaleValue'],
} as const satisfies OneRoster12Collection<'scoreScales', Column>;
