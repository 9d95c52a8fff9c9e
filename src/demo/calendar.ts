/**
 * The academic calendar of a demo year: September to June in three terms, school days Sunday to
 * Thursday. Dates are ISO text.
 */
export interface TermPlan {
  readonly nameAr: string;
  readonly nameEn: string;
  readonly startsOn: string;
  readonly endsOn: string;
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function termsOf(startYear: number): TermPlan[] {
  return [
    {
      nameAr: 'الفصل الدراسي الأول',
      nameEn: 'First term',
      startsOn: `${startYear}-09-01`,
      endsOn: `${startYear}-12-31`,
    },
    {
      nameAr: 'الفصل الدراسي الثاني',
      nameEn: 'Second term',
      startsOn: `${startYear + 1}-01-01`,
      endsOn: `${startYear + 1}-03-31`,
    },
    {
      nameAr: 'الفصل الدراسي الثالث',
      nameEn: 'Third term',
      startsOn: `${startYear + 1}-04-01`,
      endsOn: `${startYear + 1}-06-30`,
    },
  ];
}

/** School days (Sunday to Thursday) from start to end, inclusive. */
export function schoolDays(startsOn: string, endsOn: string): string[] {
  const days: string[] = [];
  const end = new Date(`${endsOn}T00:00:00Z`).getTime();
  for (let day = new Date(`${startsOn}T00:00:00Z`); day.getTime() <= end; day = new Date(day.getTime() + 86_400_000)) {
    const weekday = day.getUTCDay();
    if (weekday !== 5 && weekday !== 6) days.push(isoDate(day));
  }
  return days;
}

/** The academic year that contains the date: it starts in September. */
export function academicYearStartOf(date: Date): number {
  return date.getUTCMonth() >= 8 ? date.getUTCFullYear() : date.getUTCFullYear() - 1;
}
