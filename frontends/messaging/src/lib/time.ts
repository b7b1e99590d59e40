const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A chat line's time: 'HH:MM' today, 'Mon D HH:MM' on another day, in the reader's time zone; '' for an
 * invalid date.
 */
export function chatClock(date: string, now: Date = new Date()): string {
  const value = new Date(date);
  if (Number.isNaN(value.getTime())) return '';
  const time = `${pad(value.getHours())}:${pad(value.getMinutes())}`;
  if (value.toDateString() === now.toDateString()) return time;
  return `${value.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} ${time}`;
}

/** The full date and time, for a title tooltip. */
export function fullDate(date: string): string {
  const value = new Date(date);
  return Number.isNaN(value.getTime()) ? '' : value.toLocaleString();
}
