/** "5 minutes ago", "yesterday", in the interface's language: the sync state of accounts and sites. */
export function timeAgo(iso: string, locale: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
    ['week', 4.35],
    ['month', 12],
    ['year', Infinity],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return rtf.format(unit === 'second' && Math.abs(value) < 10 ? 0 : Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}
