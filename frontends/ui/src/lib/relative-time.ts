/**
 * 'about 2 hours ago', 'in 3 days': date-fns's formatDistance with addSuffix in English, rule for rule
 * (the same thresholds, calendar months and daylight-saving correction), without the locale machinery
 * that came with it on every page. relative-time.spec.ts compares the two over many dates.
 */

const MINUTES_IN_DAY = 1440;
const MINUTES_IN_ALMOST_TWO_DAYS = 2520;
const MINUTES_IN_MONTH = 43200;

/** The local time's offset from UTC at that moment, in milliseconds (0 where there is none). */
function timezoneOffsetMs(date: Date): number {
  const utc = new Date(
    Date.UTC(
      date.getFullYear(),
      date.getMonth(),
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      date.getMilliseconds(),
    ),
  );
  utc.setUTCFullYear(date.getFullYear());
  return +date - +utc;
}

/**
 * Whole months from `earlier` to `later` (later >= earlier), counted as date-fns's differenceInMonths
 * (but for its rule about one-month spans: this is only asked about two months and more).
 */
function monthsBetween(later: Date, earlier: Date): number {
  const difference = Math.abs(
    (later.getFullYear() - earlier.getFullYear()) * 12 + later.getMonth() - earlier.getMonth(),
  );
  if (difference < 1) return 0;
  const working = new Date(later);
  if (working.getMonth() === 1 && working.getDate() > 27) working.setDate(30);
  working.setMonth(working.getMonth() - difference);
  return +working < +earlier ? difference - 1 : difference;
}

const count = (n: number, one: string, other: string) => (n === 1 ? one : other.replace('#', String(n)));

/** The distance between two moments in words ('about 2 hours'). */
function distance(earlier: Date, later: Date): string {
  const seconds = Math.trunc((+later - +earlier) / 1000) || 0;
  const offsetSeconds = (timezoneOffsetMs(later) - timezoneOffsetMs(earlier)) / 1000;
  const minutes = Math.round((seconds - offsetSeconds) / 60);

  if (minutes < 2) return minutes === 0 ? 'less than a minute' : count(minutes, '1 minute', '# minutes');
  if (minutes < 45) return `${minutes} minutes`;
  if (minutes < 90) return 'about 1 hour';
  if (minutes < MINUTES_IN_DAY) return count(Math.round(minutes / 60), 'about 1 hour', 'about # hours');
  if (minutes < MINUTES_IN_ALMOST_TWO_DAYS) return '1 day';
  if (minutes < MINUTES_IN_MONTH) return count(Math.round(minutes / MINUTES_IN_DAY), '1 day', '# days');
  if (minutes < MINUTES_IN_MONTH * 2) {
    return count(Math.round(minutes / MINUTES_IN_MONTH), 'about 1 month', 'about # months');
  }
  const months = monthsBetween(later, earlier);
  if (months < 12) return count(Math.round(minutes / MINUTES_IN_MONTH), '1 month', '# months');
  const years = Math.trunc(months / 12);
  const monthsIntoYear = months % 12;
  if (monthsIntoYear < 3) return count(years, 'about 1 year', 'about # years');
  if (monthsIntoYear < 9) return count(years, 'over 1 year', 'over # years');
  return count(years + 1, 'almost 1 year', 'almost # years');
}

/** `date` as seen from `now`: '… ago' for the past (and the present), 'in …' for the future. */
export function relativeTimeFrom(date: Date, now: Date): string {
  return +date > +now ? `in ${distance(now, date)}` : `${distance(date, now)} ago`;
}
