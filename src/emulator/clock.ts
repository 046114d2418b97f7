/** Dates of the generated data: epoch ms formatted as the service writes them. */
export const DAY = 86_400_000;
const dayPrefix = new Map<number, string>();
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
/** `Date#toISOString`, memoising the date part (generation formats a few hundred thousand stamps). */
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefix.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    dayPrefix.set(day, prefix);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hour = (rest - min) / 60;
  return `${prefix}${pad2(hour)}:${pad2(min)}:${pad2(sec)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
export const isoDay = (ms: number): string => `${iso(Math.floor(ms / DAY) * DAY).slice(0, 19)}Z`;
/** `2025-01-08T16:43:59Z`: the live service writes location, whois and tag times in whole seconds. */
export const isoSeconds = (ms: number): string => `${iso(ms).slice(0, 19)}Z`;
