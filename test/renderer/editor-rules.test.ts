import { describe, expect, it } from 'vitest';
import { eventFields } from '@shared/schema/resources';
import { ApiError } from '../../renderer/src/api/client';
import { applyChange, localErrors, refusalText } from '../../renderer/src/editor/form';
import { parseDateText } from '../../renderer/src/lib/dateText';
import { exactZone, searchZones } from '../../renderer/src/lib/zoneSearch';

describe('two-digit years', () => {
  it('reads 26 as the nearest 19xx/20xx/21xx to this year, and leaves real years alone', () => {
    expect(parseDateText('11/30/26', 'en', { year: 2026 })).toBe('2026-11-30');
    expect(parseDateText('1/1/99', 'en', { year: 2026 })).toBe('1999-01-01');
    expect(parseDateText('1/1/70', 'en', { year: 2026 })).toBe('2070-01-01');
    expect(parseDateText('1/1/80', 'en', { year: 2026 })).toBe('1980-01-01');
    expect(parseDateText('6/1/05', 'en', { year: 2090 })).toBe('2105-06-01');
    expect(parseDateText('2031-03-12', 'en', { year: 2026 })).toBe('2031-03-12');
  });

  it('refuses years before 1900 or after 2200 from the editor', () => {
    const msg = { required: 'req', endBeforeStart: 'order', yearRange: 'years', zone: 'zone' };
    const ok = { title: 'x', start_date: '2026-11-30 10:00:00', end_date: '2026-11-30 11:00:00', timezone: 'UTC' };
    expect(localErrors(eventFields, ok, msg)).toEqual({});
    expect(localErrors(eventFields, { ...ok, start_date: '0026-11-30 10:00:00' }, msg)).toEqual({ start_date: 'years' });
    expect(localErrors(eventFields, { ...ok, end_date: '2999-11-30 11:00:00' }, msg)).toEqual({ end_date: 'years' });
    expect(localErrors(eventFields, { ...ok, start_date: '1900-01-01 00:00:00' }, msg)).toEqual({});
  });
});

describe('time zones found by the names people use', () => {
  it.each([
    ['New York', 'America/New_York'],
    ['Nova York', 'America/New_York'],
    ['Nueva York', 'America/New_York'],
    ['São Paulo', 'America/Sao_Paulo'],
    ['sao paulo', 'America/Sao_Paulo'],
    ['Brasília', 'America/Sao_Paulo'],
    ['Lisbon', 'Europe/Lisbon'],
    ['Lisboa', 'Europe/Lisbon'],
    ['Portugal', 'Europe/Lisbon'],
    ['Madrid', 'Europe/Madrid'],
    ['Spain', 'Europe/Madrid'],
    ['Espanha', 'Europe/Madrid'],
    ['España', 'Europe/Madrid'],
    ['Londres', 'Europe/London'],
    ['Ciudad de México', 'America/Mexico_City'],
    ['Tokyo', 'Asia/Tokyo'],
  ])('%s → %s', (typed, zone) => {
    expect(searchZones(typed)).toContain(zone);
  });

  it('puts the city whose name was typed first', () => {
    expect(searchZones('New York')[0]).toBe('America/New_York');
    expect(searchZones('Lisbon')[0]).toBe('Europe/Lisbon');
  });

  it('reads the abbreviations people type as the zones they mean (issue 27 §5.5)', () => {
    expect(searchZones('EST')[0]).toBe('America/New_York');
    expect(searchZones('est').some((z) => z.startsWith('Africa/'))).toBe(false);
    expect(searchZones('PST')[0]).toBe('America/Los_Angeles');
    expect(searchZones('PST')).not.toContain('America/Inuvik');
    expect(searchZones('CET')).toEqual(expect.arrayContaining(['Europe/Paris', 'Europe/Berlin', 'Europe/Madrid']));
    expect(searchZones('BRT')[0]).toBe('America/Sao_Paulo');
    expect(searchZones('GMT')).toContain('Europe/London');
    expect(exactZone('GMT+1')).toBe('UTC+1');
    expect(exactZone('UTC-3')).toBe('UTC-3');
    expect(exactZone('gmt-03:30')).toBe('UTC-3:30');
    expect(exactZone('GMT+0530')).toBe('UTC+5:30');
    expect(exactZone('GMT+15')).toBeNull();
    const msg = { required: 'req', endBeforeStart: 'order', yearRange: 'years', zone: 'zone' };
    const v = { title: 'x', start_date: '2026-11-30 10:00:00', end_date: '2026-11-30 11:00:00', timezone: 'GMT+1' };
    expect(localErrors(eventFields, v, msg)).toEqual({});
  });

  it('accepts only a zone id, an offset or nothing as a zone', () => {
    expect(exactZone('america/new_york')).toBe('America/New_York');
    expect(exactZone('utc+2')).toBe('UTC+2');
    expect(exactZone('')).toBe('');
    expect(exactZone('New York')).toBeNull();
    expect(exactZone('Europe/Lisb')).toBeNull();
  });

  it('blocks Save while the zone field holds anything else', () => {
    const msg = { required: 'req', endBeforeStart: 'order', yearRange: 'years', zone: 'zone' };
    const v = { title: 'x', start_date: '2026-11-30 10:00:00', end_date: '2026-11-30 11:00:00', timezone: 'New York' };
    expect(localErrors(eventFields, v, msg)).toEqual({ timezone: 'zone' });
  });
});

describe('moving the start', () => {
  const v = { start_date: '2031-05-05 10:00:00', end_date: '2031-05-05 11:30:00', all_day: false };

  it('moves the end by as much, across days and DST-free wall time', () => {
    expect(applyChange(v, 'start_date', '2031-05-05 14:00:00').end_date).toBe('2031-05-05 15:30:00');
    expect(applyChange(v, 'start_date', '2031-05-07 10:00:00').end_date).toBe('2031-05-07 11:30:00');
    expect(applyChange(v, 'start_date', '2031-05-05 23:00:00').end_date).toBe('2031-05-06 00:30:00');
  });

  it('changes the length only when the end is edited', () => {
    expect(applyChange(v, 'end_date', '2031-05-05 12:00:00')).toMatchObject({ start_date: v.start_date, end_date: '2031-05-05 12:00:00' });
  });

  it('gives an hour at 9:00 when All day is unticked (the next hour on today)', () => {
    const allDay = { start_date: '2031-05-05 00:00:00', end_date: '2031-05-06 23:59:59', all_day: true };
    expect(applyChange(allDay, 'all_day', false, new Date(2026, 0, 1, 15, 20))).toMatchObject({ start_date: '2031-05-05 09:00:00', end_date: '2031-05-05 10:00:00', all_day: false });
    expect(applyChange({ ...allDay, start_date: '2026-01-01 00:00:00' }, 'all_day', false, new Date(2026, 0, 1, 15, 20))).toMatchObject({
      start_date: '2026-01-01 16:00:00',
      end_date: '2026-01-01 17:00:00',
    });
  });
});

describe('a refused save in plain words', () => {
  const label = (key: string) => ({ 'field.website': 'Website', 'field.cost': 'Cost' })[key] ?? key;

  it('names each field by its label with the server’s reason', () => {
    const err = new ApiError('Invalid parameter(s): website', 400, 'rest_invalid_param', { website: 'Must be an absolute http or https URL.' });
    expect(refusalText(err, eventFields, label, 'Required.')).toBe(`${label(eventFields.website.label)}: Must be an absolute http or https URL.`);
  });

  it('says which fields are missing, and keeps other messages as they are', () => {
    const missing = new ApiError('Missing parameter(s): website', 400, 'rest_missing_callback_param', ['website']);
    expect(refusalText(missing, eventFields, label, 'Required.')).toBe(`${label(eventFields.website.label)}: Required.`);
    expect(refusalText(new ApiError('The event with ID 3 is in the trash.', 410, 'event-no-longer-available'), eventFields, label, 'x')).toBe('The event with ID 3 is in the trash.');
  });
});
