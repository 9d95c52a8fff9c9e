import fc from 'fast-check';
import { type GeneratedPhone, phoneValue, textValue } from './generated-values';

/** The drawn shape of one school, which `buildSchool` turns into rows. */
export interface SchoolPlan {
  readonly courses: string[];
  readonly homerooms: string[];
  /** `section`: the homeroom whose pupils the class is taught to, past the last: pupils without one. */
  readonly scheduled: Array<{ title: string; course: number; terms: string; section: number }>;
  readonly students: Array<{
    given: string;
    family: string;
    phone: GeneratedPhone | undefined;
    homeroom: number | undefined;
    classes: number[];
    guardian: number | undefined;
    demographics: { birthDate: string; sex: string } | undefined;
  }>;
  readonly teachers: Array<{
    given: string;
    family: string;
    phone: GeneratedPhone | undefined;
    classes: number[];
    perTerm: boolean;
    homeroomOnly: boolean;
  }>;
  readonly guardians: Array<{ given: string; family: string; phone: GeneratedPhone | undefined; role: string }>;
  readonly lineItems: Array<{ title: string; klass: number; category: string; max: number }>;
  readonly scores: number[];
  readonly deletedRows: boolean;
}

const indexes = fc.array(fc.nat(9), { maxLength: 3 });

export const schoolPlan: fc.Arbitrary<SchoolPlan> = fc.record({
  courses: fc.array(textValue, { minLength: 1, maxLength: 2 }),
  homerooms: fc.array(textValue, { minLength: 1, maxLength: 2 }),
  scheduled: fc.array(
    fc.record({ title: textValue, course: fc.nat(9), terms: fc.constantFrom('t1', 't2', 't1,t2'), section: fc.nat(9) }),
    { minLength: 1, maxLength: 3 },
  ),
  students: fc.array(
    fc.record({
      given: textValue,
      family: textValue,
      phone: phoneValue,
      homeroom: fc.option(fc.nat(9), { nil: undefined, freq: 2 }),
      classes: indexes,
      guardian: fc.option(fc.nat(9), { nil: undefined }),
      demographics: fc.option(
        fc.record({
          birthDate: fc.constantFrom('2013-04-02', '2012-12-31', '2014-02-28'),
          sex: fc.constantFrom('male', 'female', 'other', 'unspecified'),
        }),
        { nil: undefined },
      ),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  teachers: fc.array(
    fc.record({
      given: textValue,
      family: textValue,
      phone: phoneValue,
      classes: indexes,
      perTerm: fc.boolean(),
      homeroomOnly: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  guardians: fc.array(
    fc.record({ given: textValue, family: textValue, phone: phoneValue, role: fc.constantFrom('parent', 'guardian') }),
    { maxLength: 2 },
  ),
  lineItems: fc.array(
    fc.record({
      title: textValue,
      klass: fc.nat(9),
      category: fc.constantFrom('cat-quiz', 'cat-exam'),
      max: fc.constantFrom(10, 20, 100),
    }),
    { maxLength: 3 },
  ),
  scores: fc.array(fc.nat(40), { minLength: 8, maxLength: 8 }),
  deletedRows: fc.boolean(),
});
