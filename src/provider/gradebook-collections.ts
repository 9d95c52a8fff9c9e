import type { Narrowing } from './nested-collections';
import { type Collection, rowReader } from './rostering-collections';

/**
 * The gradebook service's collections (OneRoster 1.2 REST binding, gradebook), from the exported
 * gradebook files: categories, line items (the store's assessments), results (its marks, and the
 * results without a score it keeps) and score scales (the rows of a 1.2 bundle's scoreScales.csv,
 * as its import keeps them).
 */
const READ = ['gradebook.readonly'];

export const GRADEBOOK: Readonly<Record<string, Collection>> = {
  categories: { file: 'categories', plural: 'categories', singular: 'category', scopes: READ },
  lineItems: { file: 'lineItems', plural: 'lineItems', singular: 'lineItem', scopes: READ },
  results: { file: 'results', plural: 'results', singular: 'result', scopes: READ },
  scoreScales: { file: 'scoreScales', plural: 'scoreScales', singular: 'scoreScale', scopes: READ },
};

/** The line items of a class, by sourcedId. */
const lineItemsOfClass: Narrowing = (school, classId) => {
  const file = school.get('lineItems');
  const read = rowReader(file);
  const items = new Set(
    (file?.rows ?? [])
      .map(read)
      .filter((row) => row('classSourcedId') === classId)
      .map((row) => row('sourcedId')),
  );
  return (row) => items.has(row('lineItemSourcedId'));
};

/** A class's score scales: those the scale names the class of, and those its line items are scored on. */
const scoreScalesOfClass: Narrowing = (school, classId) => {
  const file = school.get('lineItems');
  const read = rowReader(file);
  const used = new Set(
    (file?.rows ?? [])
      .map(read)
      .filter((row) => row('classSourcedId') === classId)
      .map((row) => row('scoreScaleSourcedId')),
  );
  return (row) => row('classSourcedId') === classId || used.has(row('sourcedId'));
};

/** Categories are the school's, shared by its classes: a class's are all of them. */
const everyRecord: Narrowing = () => () => true;

export const GRADEBOOK_NESTED: Readonly<Record<string, Narrowing>> = {
  'classes/categories': everyRecord,
  'classes/lineItems': (_school, id) => (row) => row('classSourcedId') === id,
  'classes/results': lineItemsOfClass,
  'classes/scoreScales': scoreScalesOfClass,
  'lineItems/results': (_school, id) => (row) => row('lineItemSourcedId') === id,
  'schools/lineItems': everyRecord,
  'schools/scoreScales': everyRecord,
  'students/results': (_school, id) => (row) => row('studentSourcedId') === id,
};

/** The files a nested path's narrowing reads whole, beyond the collection it narrows. */
export const GRADEBOOK_NESTED_READS: Readonly<Record<string, readonly string[]>> = {
  'classes/results': ['lineItems'],
  'classes/scoreScales': ['lineItems'],
};
