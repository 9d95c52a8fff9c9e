import { hasRightToLeftLetter, visualRuns } from '../../src/documents/bidi-text';

/** The display order of mixed lines, as the Unicode Bidirectional Algorithm settles it. */

const rtl = (text: string) => ({ text, rightToLeft: true });
const ltr = (text: string) => ({ text, rightToLeft: false });

describe('visual runs of a line, left to right on the page', () => {
  test('an Arabic line is one right-to-left run in reading order, so its letters can join', () => {
    expect(visualRuns('ملك بلال البلوشي', 'rtl')).toEqual([rtl('ملك بلال البلوشي')]);
  });

  test('an English line is one left-to-right run', () => {
    expect(visualRuns('Malak Bilal Al-Balushi', 'ltr')).toEqual([ltr('Malak Bilal Al-Balushi')]);
  });

  test('digits in an Arabic line keep their own order and stand where a reader meets them', () => {
    expect(visualRuns('الفصل الدراسي الأول 2026/2027', 'rtl')).toEqual([ltr('2026/2027'), rtl('الفصل الدراسي الأول ')]);
    expect(visualRuns('صفحة 1 من 12', 'rtl')).toEqual([ltr('12'), rtl(' من '), ltr('1'), rtl('صفحة ')]);
  });

  test('Latin words inside an Arabic line run left to right between the Arabic runs', () => {
    expect(visualRuns('مدرسة ABC الدولية 2', 'rtl')).toEqual([ltr('2'), rtl(' الدولية '), ltr('ABC'), rtl('مدرسة ')]);
  });

  test('brackets in right-to-left runs are mirrored, so they still open towards their content', () => {
    expect(visualRuns('اختبار قصير (10)', 'rtl')).toEqual([rtl('('), ltr('10'), rtl('اختبار قصير )')]);
  });

  test('an Arabic name inside an English line runs right to left in its place', () => {
    expect(visualRuns('Student: ملك بلال (Grade 1)', 'ltr')).toEqual([
      ltr('Student: '),
      rtl('ملك بلال'),
      ltr(' (Grade 1)'),
    ]);
  });

  test('an empty line has no runs', () => {
    expect(visualRuns('', 'rtl')).toEqual([]);
  });
});

test('right-to-left letters are told from neutral characters and Latin', () => {
  expect(hasRightToLeftLetter('اختبار')).toBe(true);
  expect(hasRightToLeftLetter(' ) - ')).toBe(false);
  expect(hasRightToLeftLetter('ABC 12')).toBe(false);
});
