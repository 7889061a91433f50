// Dates, as day numbers since 1970-01-01 and month numbers since year 0, computed without
// the clock or the platform's time zone data.

/** The day the dataset describes: dates and durations are computed back from it. */
export const DATASET_AS_OF = '2025-06-30';

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

export function isoFromDays(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

export function isoFromMonth(monthNumber: number): string {
  const year = Math.floor(monthNumber / 12);
  return `${year}-${pad2((monthNumber % 12) + 1)}-01`;
}

export const [asOfYear, asOfMonth, asOfDay] = DATASET_AS_OF.split('-').map(Number) as [number, number, number];
export const AS_OF_DAYS = daysFromCivil(asOfYear, asOfMonth, asOfDay);
export const AS_OF_MONTH = asOfYear * 12 + asOfMonth - 1;
export const DAYS_PER_YEAR = 365.25;

export function daysFromIso(iso: string): number {
  return daysFromCivil(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));
}
