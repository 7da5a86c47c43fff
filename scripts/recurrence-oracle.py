#!/usr/bin/python3
"""
Writes test/fixtures/recurrence/dateutil-cases.json: random repeating events and the occurrence
starts an independent engine (python-dateutil's rrule, not ical.js) gives for a window of each.
test/server/api/recurrence-oracle.test.ts creates every case through the API and compares.

Run with Debian's python (python-dateutil 2.8.2, zoneinfo):
    /usr/bin/python3 scripts/recurrence-oracle.py [--seed N] [--cases N]
The output depends only on the seed, so re-running it rewrites the same file.

Semantics it encodes (Almanac's, from RFC 5545):
- Everything is a wall time of the event's zone (naive datetimes here): 09:00 New York stays
  09:00 across DST changes, including a wall time inside a DST gap, which Almanac keeps as
  written (its UTC instant moves forward, which this file does not look at).
- DTSTART is always the first occurrence and counts toward COUNT. dateutil does not do that when
  DTSTART does not match the rule, so DTSTART is picked as the rule's own first occurrence after
  a random seed time (and the script checks it is).
- UNTIL of a timed series is a UTC instant and is compared as an instant: each wall time becomes
  an instant with zoneinfo (fold=0: an ambiguous time is its first instance, a gap time uses the
  offset before the gap, RFC 5545 §3.3.5). UNTIL of an all-day series is a date, inclusive.
- A DTSTART inside a DST gap is moved forward out of it first, as the API does with any event's
  start (the original's behaviour); the rule then repeats the moved time of day.
- EXDATE wins over RRULE and RDATE; an RDATE that is also a rule occurrence is listed once.
- A rule that makes more than 24 occurrences in some day is refused by the API on purpose; such
  cases carry `refused` (a pattern of the API's message) instead of expected starts.
"""
import argparse
import functools
import json
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from dateutil.rrule import DAILY, HOURLY, MINUTELY, MONTHLY, WEEKLY, YEARLY, rrulestr

ZONES = [
    'America/New_York', 'Europe/Lisbon', 'Europe/Berlin', 'Australia/Sydney', 'America/Sao_Paulo',
    'Asia/Tokyo', 'UTC', 'Europe/London', 'Pacific/Auckland', 'America/Santiago', 'Asia/Kolkata',
    'America/Los_Angeles', 'Australia/Lord_Howe',
]
DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']
OUT = Path(__file__).resolve().parent.parent / 'test' / 'fixtures' / 'recurrence' / 'dateutil-cases.json'
# The server under test is run with this clock (see the test): windows past its horizon
# (24 months) are generated on demand, windows before it come from stored rows.
NOW = datetime(2026, 11, 25, 12, 0, 0)


def fmt(d: datetime) -> str:
    return d.strftime('%Y-%m-%d %H:%M:%S')


def ical(d: datetime, all_day: bool) -> str:
    return d.strftime('%Y%m%d') if all_day else d.strftime('%Y%m%dT%H%M%S')


def instant(wall: datetime, zone: str) -> datetime:
    return wall.replace(tzinfo=ZoneInfo(zone), fold=0).astimezone(timezone.utc).replace(tzinfo=None)


def normalized(wall: datetime, zone: str) -> datetime:
    """The wall time itself, or for one inside a DST gap the valid time it names (moved forward)."""
    z = ZoneInfo(zone)
    return wall.replace(tzinfo=z, fold=0).astimezone(timezone.utc).astimezone(z).replace(tzinfo=None)


@functools.lru_cache(maxsize=None)
def transitions(zone: str, year: int) -> list[datetime]:
    """Wall times (hour precision) just before the zone's offset changes in `year`."""
    z = ZoneInfo(zone)
    out = []
    t = datetime(year, 1, 1, tzinfo=timezone.utc)
    prev = t.astimezone(z).utcoffset()
    while t.year == year:
        t2 = t + timedelta(hours=1)
        off = t2.astimezone(z).utcoffset()
        if off != prev:
            out.append(t.astimezone(z).replace(tzinfo=None))
            prev = off
        t = t2
    return out


def rule_parts(rnd: random.Random, freq: str, all_day: bool) -> list[str]:
    """The BY… parts of a random rule (a list of NAME=VALUE)."""
    parts: list[str] = []
    pick = lambda k, pool: sorted(rnd.sample(pool, k), key=pool.index)
    r = rnd.random()
    if freq == 'HOURLY':
        if r < 0.4:
            parts.append('BYHOUR=' + ','.join(str(h) for h in sorted(rnd.sample(range(24), rnd.randint(2, 6)))))
        if rnd.random() < 0.3:
            parts.append('BYDAY=' + ','.join(pick(rnd.randint(2, 5), DAYS)))
    elif freq == 'DAILY':
        if r < 0.2:
            parts.append('BYDAY=' + ','.join(pick(rnd.randint(1, 5), DAYS)))
        elif r < 0.3:
            parts.append('BYMONTH=' + ','.join(str(m) for m in sorted(rnd.sample(range(1, 13), rnd.randint(1, 4)))))
        elif r < 0.38 and not all_day:
            parts.append('BYHOUR=' + ','.join(str(h) for h in sorted(rnd.sample(range(24), rnd.randint(2, 3)))))
    elif freq == 'WEEKLY':
        if r < 0.75:
            parts.append('BYDAY=' + ','.join(pick(rnd.randint(1, 4), DAYS)))
        if rnd.random() < 0.2:
            parts.append('WKST=' + rnd.choice(DAYS))
        if rnd.random() < 0.1:
            parts.append('BYMONTH=' + ','.join(str(m) for m in sorted(rnd.sample(range(1, 13), rnd.randint(2, 6)))))
    elif freq == 'MONTHLY':
        if r < 0.25:
            days = rnd.sample([1, 2, 5, 10, 13, 15, 28, 29, 30, 31, -1, -2, -3, -7, -15], rnd.randint(1, 3))
            parts.append('BYMONTHDAY=' + ','.join(str(d) for d in days))
        elif r < 0.5:
            n = rnd.choice([1, 2, 3, 4, 5, -1, -2])
            extra = [f'{rnd.choice([1, 3, -1])}{rnd.choice(DAYS)}'] if rnd.random() < 0.2 else []
            parts.append('BYDAY=' + ','.join([f'{n}{rnd.choice(DAYS)}'] + extra))
        elif r < 0.7:
            parts.append('BYDAY=' + ','.join(pick(rnd.randint(1, 5), DAYS)))
            parts.append('BYSETPOS=' + ','.join(str(p) for p in rnd.sample([1, 2, 3, -1, -2], rnd.randint(1, 2))))
        elif r < 0.78:
            parts.append('BYDAY=FR')
            parts.append('BYMONTHDAY=13')
        elif r < 0.85:
            parts.append('BYMONTHDAY=' + ','.join(str(d) for d in rnd.sample(range(1, 29), 3)))
            parts.append('BYSETPOS=' + rnd.choice(['1', '-1', '2']))
        if rnd.random() < 0.15:
            parts.append('BYMONTH=' + ','.join(str(m) for m in sorted(rnd.sample(range(1, 13), rnd.randint(2, 6)))))
    elif freq == 'YEARLY':
        month = rnd.randint(1, 12)
        if r < 0.3:
            parts.append(f'BYMONTH={month}')
            parts.append(f'BYDAY={rnd.choice([1, 2, 3, 4, -1])}{rnd.choice(DAYS)}')
        elif r < 0.5:
            parts.append(f'BYMONTH={month}')
            parts.append('BYMONTHDAY=' + str(rnd.choice([1, 15, 29, 30, 31, -1])))
        elif r < 0.6:
            parts.append(f'BYDAY={rnd.choice([1, 10, 20, 52, -1, -10])}{rnd.choice(DAYS)}')
        elif r < 0.7:
            parts.append('BYMONTH=' + ','.join(str(m) for m in sorted(rnd.sample(range(1, 13), 2))))
            parts.append('BYDAY=' + rnd.choice(DAYS))
            parts.append('BYSETPOS=' + rnd.choice(['1', '-1']))
        elif r < 0.75:
            parts.append('BYMONTH=2')
            parts.append('BYMONTHDAY=29')
    return parts


def seed_time(rnd: random.Random, zone: str, all_day: bool, freq: str) -> datetime:
    year = rnd.randint(2016, 2045) if rnd.random() < 0.4 else rnd.randint(2026, 2032)
    if zone == 'America/Sao_Paulo' and rnd.random() < 0.7:
        year = rnd.randint(2016, 2018)  # Brazil had DST until 2019
    near = transitions(zone, year)
    if near and rnd.random() < 0.5:
        # Days (or for hourly rules, hours) before a DST change, often in the hour that is
        # skipped or repeated.
        t = rnd.choice(near)
        if freq == 'HOURLY':
            base = t - timedelta(hours=rnd.randint(0, 30))
        else:
            base = t.replace(minute=0) - timedelta(days=rnd.randint(0, 20))
            base = base.replace(hour=rnd.choice([t.hour, t.hour, (t.hour + 1) % 24, 9]), minute=rnd.choice([0, 30]))
    else:
        base = datetime(year, rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23), rnd.choice([0, 15, 30, 45]))
    if all_day:
        base = base.replace(hour=0, minute=0)
    return base.replace(second=0)


def rule_text(freq: str, interval: int, parts: list[str], tail: list[str]) -> str:
    return ';'.join([f'FREQ={freq}'] + ([f'INTERVAL={interval}'] if interval > 1 else []) + parts + tail)


def occurrences(rule: str, dtstart: datetime, until_wall: datetime, limit: int = 20000) -> list[datetime]:
    """dateutil's occurrences of a rule (no UNTIL in it) from dtstart up to until_wall, at most `limit`."""
    out = []
    for d in rrulestr(rule, dtstart=dtstart, cache=False):
        if d > until_wall or len(out) >= limit:
            break
        out.append(d)
    return out


def make_case(rnd: random.Random, index: int) -> dict | None:
    zone = rnd.choice(ZONES)
    freq = rnd.choices(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'HOURLY'], [24, 30, 26, 12, 8])[0]
    all_day = freq != 'HOURLY' and rnd.random() < 0.2
    if freq == 'HOURLY':
        interval = rnd.choice([1, 1, 2, 3, 5, 7, 12])
    else:
        interval = rnd.choice([1, 1, 1, 2, 3, 4])
    parts = rule_parts(rnd, freq, all_day)
    if all_day:
        parts = [p for p in parts if not p.startswith('BYHOUR')]
    seed = seed_time(rnd, zone, all_day, freq)
    base_rule = rule_text(freq, interval, parts, [])
    try:
        first = occurrences(base_rule, seed, seed + timedelta(days=3660), 1)
    except ValueError:
        return None  # dateutil refuses e.g. an hourly INTERVAL that never meets BYHOUR: draw again
    if not first:
        return None
    dtstart = first[0]
    if not all_day and normalized(dtstart, zone) != dtstart:
        # A start inside a DST gap: the API moves an event's start forward out of the gap (as the
        # original does for every event) before the series exists, so the series' DTSTART, and the
        # time of day of its rule, is the moved one. Redraw the first occurrence from there.
        first = occurrences(base_rule, normalized(dtstart, zone), normalized(dtstart, zone) + timedelta(days=3660), 1)
        if not first or normalized(first[0], zone) != first[0]:
            return None
        dtstart = first[0]
    if dtstart.year > 2060:
        return None
    head = occurrences(base_rule, dtstart, dtstart + timedelta(days=3660 * 2), 400)
    assert head[0] == dtstart, (base_rule, seed, dtstart, head[:2])

    # Bound: COUNT, UNTIL or none. Series that start before "now", and hourly ones, always end
    # (the API writes their rows up to the horizon: thousands for an open-ended one).
    bounded = freq == 'HOURLY' or dtstart < NOW + timedelta(days=30)
    kind = rnd.choices(['count', 'until', 'none'], [40, 35, 0 if bounded else 25])[0]
    tail: list[str] = []
    until_instant = until_date = None
    count = None
    if kind == 'count':
        count = rnd.randint(1, min(len(head), 120 if freq == 'HOURLY' else 60))
        tail = [f'COUNT={count}']
    elif kind == 'until':
        k = rnd.randint(0, min(len(head), 80) - 1)
        at = head[k]
        if all_day:
            until_date = (at + timedelta(days=rnd.choice([0, 0, 1, 3]))).date()
            tail = [f'UNTIL={until_date.strftime("%Y%m%d")}']
        else:
            # Exactly an occurrence's instant (UNTIL is inclusive) or a little after it.
            until_instant = instant(at, zone) + timedelta(minutes=rnd.choice([0, 0, 1, 59, 60 * 20]))
            if instant(dtstart, zone) > until_instant:
                until_instant = instant(dtstart, zone)
            tail = [f'UNTIL={until_instant.strftime("%Y%m%dT%H%M%SZ")}']
    rule = rule_text(freq, interval, parts, tail)

    # The whole set as dateutil makes it, up to a bound past any window used below.
    horizon_wall = datetime(2100, 1, 1)
    made = occurrences(rule_text(freq, interval, parts, [f'COUNT={count}'] if count else []), dtstart, horizon_wall,
                       count or 20000)
    if until_instant is not None:
        made = [d for d in made if instant(d, zone) <= until_instant]
    if until_date is not None:
        made = [d for d in made if d.date() <= until_date]
    assert made and made[0] == dtstart

    # More than 24 a day: the API refuses the rule (a documented bound).
    per_day: dict[date, int] = {}
    for d in made[:2000]:
        per_day[d.date()] = per_day.get(d.date(), 0) + 1
    refused = max(per_day.values()) > 24

    # RDATEs: other times (rule's time of day or any), an occurrence again, one also excluded.
    rdates: list[datetime] = []
    rdate_values: list[str] = []
    span_end = made[min(len(made), 60) - 1] if len(made) > 1 else dtstart + timedelta(days=60)
    span_days = max(1, (span_end - dtstart).days + 30)
    for _ in range(rnd.choices([0, 1, 2, 3], [45, 25, 15, 15])[0]):
        what = rnd.random()
        if what < 0.15:
            d = rnd.choice(made[:50])
        else:
            d = dtstart + timedelta(days=rnd.randint(-3 if what < 0.2 else 1, span_days))
            if not all_day and rnd.random() < 0.5:
                d = d.replace(hour=rnd.randint(0, 23), minute=rnd.choice([0, 30]))
        if all_day:
            d = d.replace(hour=0, minute=0)
        rdates.append(d)
        if not all_day and rnd.random() < 0.2:
            # Given in UTC: the API stores the zone's wall time for it.
            rdate_values.append(instant(d, zone).strftime('%Y%m%dT%H%M%SZ'))
            rdates[-1] = d.replace(tzinfo=ZoneInfo(zone), fold=0).astimezone(timezone.utc).astimezone(ZoneInfo(zone)).replace(tzinfo=None)
        else:
            rdate_values.append(ical(d, all_day))
    exdates: list[datetime] = []
    for _ in range(rnd.choices([0, 1, 2, 4], [45, 25, 15, 15])[0]):
        what = rnd.random()
        if what < 0.05:
            d = dtstart  # RFC 5545 lets EXDATE exclude DTSTART too
        elif what < 0.75:
            d = rnd.choice(made[:60])
        elif what < 0.9 and rdates:
            d = rnd.choice(rdates)
        else:
            d = dtstart + timedelta(days=rnd.randint(1, span_days), hours=0 if all_day else rnd.randint(0, 3))
        exdates.append(d)
    if dtstart in exdates and rnd.random() < 0.7:
        exdates = [d for d in exdates if d != dtstart]

    full = sorted((set(made) | set(rdates)) - set(exdates))

    # The window: around the start, some years on, or far ahead (generated on demand).
    length = {
        'HOURLY': timedelta(days=rnd.randint(1, 10)),
        'DAILY': timedelta(days=rnd.randint(7, 120)),
        'WEEKLY': timedelta(days=rnd.randint(30, 365)),
        'MONTHLY': timedelta(days=rnd.randint(180, 1500)),
        'YEARLY': timedelta(days=rnd.randint(3 * 365, 15 * 365)),
    }[freq]
    w = rnd.random()
    open_ended = kind == 'none'
    far = open_ended and w >= 0.5
    if far:
        lo = datetime(rnd.randint(2060, 2094), rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23))
    elif w < 0.55 or not full:
        lo = dtstart - timedelta(days=rnd.randint(0, 20), hours=rnd.randint(0, 23))
    else:
        pick = rnd.choice(full[: max(1, len(full))])
        lo = pick - timedelta(days=rnd.randint(0, 40))
    if rnd.random() < 0.5 and full and not far:
        # A bound exactly on an occurrence: the window is [from, to), so it is in at `from`.
        lo = rnd.choice(full[:30])
    lo = lo.replace(second=0, microsecond=0)
    hi = lo + length
    if all_day:
        lo, hi = lo.replace(hour=0, minute=0), hi.replace(hour=0, minute=0)
    hi = min(hi, horizon_wall)
    expected = [d for d in full if lo <= d < hi]
    if len(expected) > 300:
        hi = expected[300]
        expected = expected[:300]

    duration = 86399 if all_day else rnd.choice([900, 1800, 3600, 5400, 7200])
    case = {
        'id': index,
        'zone': zone,
        'all_day': all_day,
        'start': fmt(dtstart),
        'duration_s': duration,
        'recurrence': {'rules': [rule], 'rdates': rdate_values, 'exdates': [ical(d, all_day) for d in exdates]},
        'window': {'from': fmt(lo), 'to': fmt(hi)},
    }
    if refused:
        case['refused'] = 'more than 24 occurrences a day'
    else:
        case['expected'] = [fmt(d) for d in expected]
    return case


def refused_cases(rnd: random.Random, start: int) -> list[dict]:
    """Rules over the documented bound of 24 a day, checked with dateutil too."""
    out = []
    for i, (rule, zone) in enumerate([('FREQ=HOURLY;BYMINUTE=0,30', 'Europe/Berlin'), ('FREQ=MINUTELY;INTERVAL=30', 'UTC'),
                                      ('FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,30', 'Asia/Tokyo')]):
        dtstart = datetime(2031, 5, 1 + i, 0, 0)
        made = list(rrulestr(rule, dtstart=dtstart, cache=False).between(dtstart, dtstart + timedelta(days=1)))
        assert len(made) > 24
        out.append({'id': start + i, 'zone': zone, 'all_day': False, 'start': fmt(dtstart), 'duration_s': 600,
                    'recurrence': {'rules': [rule], 'rdates': [], 'exdates': []},
                    'window': {'from': fmt(dtstart), 'to': fmt(dtstart + timedelta(days=1))},
                    'refused': 'more than 24 occurrences a day'})
    return out


def dst_edge_cases(start: int) -> list[dict]:
    """UNTIL inside the hour a fall-back repeats: compared as an instant, an occurrence at a wall
    time of that hour is its first instance (RFC 5545 §3.3.5), so it can be before an UNTIL whose
    wall time is earlier."""
    out = []
    for i, (zone, dtstart, until_utc) in enumerate([
        ('America/New_York', datetime(2031, 10, 20, 1, 45), datetime(2031, 11, 2, 6, 30)),  # 01:30 EST, the second 01:30
        ('Europe/Berlin', datetime(2031, 10, 1, 2, 15), datetime(2031, 10, 26, 1, 0)),  # 02:00 CET
        ('Australia/Sydney', datetime(2031, 3, 20, 2, 40), datetime(2031, 4, 5, 15, 20)),  # 02:20 AEST
        ('America/New_York', datetime(2031, 10, 20, 1, 15), datetime(2031, 11, 2, 5, 30)),  # 01:30 EDT: 01:15 in, 01:45 not made
    ]):
        rule = f'FREQ=DAILY;UNTIL={until_utc.strftime("%Y%m%dT%H%M%SZ")}'
        made = [d for d in occurrences('FREQ=DAILY', dtstart, dtstart + timedelta(days=60)) if instant(d, zone) <= until_utc]
        lo, hi = dtstart, dtstart + timedelta(days=60)
        out.append({'id': start + i, 'zone': zone, 'all_day': False, 'start': fmt(dtstart), 'duration_s': 600,
                    'recurrence': {'rules': [rule], 'rdates': [], 'exdates': []},
                    'window': {'from': fmt(lo), 'to': fmt(hi)}, 'expected': [fmt(d) for d in made if lo <= d < hi]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int, default=20261125)
    ap.add_argument('--cases', type=int, default=300)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    cases: list[dict] = []
    while len(cases) < args.cases:
        c = make_case(rnd, len(cases))
        if c:
            cases.append(c)
    cases += refused_cases(rnd, len(cases))
    cases += dst_edge_cases(len(cases))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = {'generator': 'scripts/recurrence-oracle.py', 'seed': args.seed, 'dateutil': __import__('dateutil').__version__, 'cases': cases}
    OUT.write_text(json.dumps(doc, indent=None, separators=(',', ':')).replace('},{"id"', '},\n{"id"') + '\n')
    total = sum(len(c.get('expected', [])) for c in cases)
    print(f'{len(cases)} cases, {total} expected starts, {OUT.stat().st_size} bytes -> {OUT}')


if __name__ == '__main__':
    main()
