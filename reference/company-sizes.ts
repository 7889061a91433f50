/**
 * The headcount bands of the professional network, smallest first; the last is open-ended in
 * reality. The demo catalog gives every company one of them, and lookalikes compare companies by
 * the band their headcount falls in.
 */
export const COMPANY_SIZE_BANDS: readonly { min: number; max: number }[] = [
  { min: 1, max: 10 },
  { min: 11, max: 50 },
  { min: 51, max: 200 },
  { min: 201, max: 500 },
  { min: 501, max: 1000 },
  { min: 1001, max: 5000 },
  { min: 5001, max: 10000 },
  { min: 10001, max: 1000000 },
];

/** The band (its index in COMPANY_SIZE_BANDS) a headcount falls in; null when it is unknown. */
export function sizeBandOf(employeeCountMin: number | null): number | null {
  if (employeeCountMin === null) return null;
  const index = COMPANY_SIZE_BANDS.findIndex((band) => employeeCountMin <= band.max);
  return index === -1 ? COMPANY_SIZE_BANDS.length - 1 : index;
}
