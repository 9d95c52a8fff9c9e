import { FAMILY_NAMES, FEMALE_FIRST_NAMES, MALE_FIRST_NAMES, type NamePair } from './names';
import type { Random } from './random';

/** A person's name in both languages, built the Arabic way: own name, father's name, family. */
export interface BilingualName {
  readonly ar: string;
  readonly en: string;
}

export function fullName(first: NamePair, father: NamePair, family: NamePair): BilingualName {
  return { ar: `${first[0]} ${father[0]} ${family[0]}`, en: `${first[1]} ${father[1]} ${family[1]}` };
}

export function randomPerson(
  random: Random,
  gender: 'M' | 'F',
  family: NamePair = random.pick(FAMILY_NAMES),
): BilingualName {
  return fullName(
    random.pick(gender === 'M' ? MALE_FIRST_NAMES : FEMALE_FIRST_NAMES),
    random.pick(MALE_FIRST_NAMES),
    family,
  );
}

/** Saudi mobile prefixes (5 and a digit) of valid numbers: AuthCode texts only valid numbers. */
const MOBILE_PREFIXES = ['50', '53', '54', '55', '56', '58', '59', '50', '55', '56'];

/** A Saudi mobile number in E.164, the form the directory stores. */
export function mobileNumber(random: Random): string {
  const digits = String(random.int(0, 99_999_999)).padStart(8, '0');
  return `+966${MOBILE_PREFIXES[Number(digits[0])]}${digits.slice(1)}`;
}

export function hexToken(random: Random, length: number): string {
  let token = '';
  while (token.length < length) token += random.int(0, 0xffff).toString(16).padStart(4, '0');
  return token.slice(0, length);
}
