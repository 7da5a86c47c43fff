/** The Settings dialog's reminder rows: what a stored reminder reads as, and what a row saves. */
import { describe, expect, it } from 'vitest';
import { normalizeReminders } from '../../../shared/reminders';
import { fromRow, toRow } from '../../../renderer/src/settings/reminderRows';

describe('reminder rows', () => {
  it.each([
    ['-PT15M', '15', 'minutes'],
    ['-PT0S', '0', 'minutes'],
    ['-PT2H', '2', 'hours'],
    ['-PT90M', '90', 'minutes'],
    ['-P1D', '1', 'days'],
    ['-P2W', '2', 'weeks'],
    ['-PT15H', '15', 'hours'],
  ])('%s reads as %s %s before, and saves back the same reminder', (trigger, amount, unit) => {
    const stored = normalizeReminders([trigger]) as Array<{ action: 'display'; trigger: string }>;
    const row = toRow(stored[0]);
    expect(row).toMatchObject({ kind: 'before', amount, unit });
    expect(normalizeReminders([fromRow(row)])).toEqual(stored);
  });

  it('keeps what a row cannot say as it is: after the start, from the end, at a time, days and hours', () => {
    for (const r of [
      { action: 'display' as const, trigger: 'PT5M' },
      { action: 'display' as const, trigger: '-PT5M', related: 'end' as const },
      { action: 'audio' as const, at: '2031-01-05T08:00:00Z' },
      { action: 'display' as const, trigger: '-P1DT2H' },
    ]) {
      const row = toRow(r);
      expect(row.kind).toBe('other');
      expect(fromRow(row)).toEqual(r);
    }
  });

  it('keeps as it is what the event editor keeps: an email, a reminder with its own text', () => {
    for (const r of [
      { action: 'email' as const, trigger: '-PT15M', attendees: ['me@example.org'] },
      { action: 'display' as const, trigger: '-PT1H', description: 'Leave now' },
    ]) {
      const row = toRow(r);
      expect(row.kind).toBe('other');
      expect(fromRow(row)).toEqual(r);
    }
  });

  it('an amount that is not a whole number gives a trigger the shared check refuses', () => {
    for (const amount of ['', '-5', '1.5', 'soon']) {
      expect(normalizeReminders([fromRow({ kind: 'before', amount, unit: 'minutes', base: { action: 'display', trigger: '-PT1M' } })])).toBe('invalid_reminder_trigger');
    }
  });
});
