import { describe, expect, it } from 'vitest';
import i18n from '../../../renderer/src/i18n';
import { choiceOf, customOf, customTrigger, describeReminder, nextNew, rowsOf, rowsToReminders, type Reminder } from '../../../renderer/src/reminders/choices';

const t = (key: string, opts?: Record<string, unknown>) => i18n.getFixedT('en')(key, opts);
const describe_ = (r: Reminder, allDay = false) => describeReminder(r, allDay, t, (iso) => iso, (m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);

describe('what a row shows', () => {
  it('shows the presets for plain display reminders, by the kind of event', () => {
    expect(choiceOf({ action: 'display', trigger: 'PT0S' }, false)).toEqual({ kind: 'preset', preset: 'start' });
    expect(choiceOf({ action: 'display', trigger: '-PT10M' }, false)).toEqual({ kind: 'preset', preset: '10m' });
    expect(choiceOf({ action: 'display', trigger: '-P1D' }, false)).toEqual({ kind: 'preset', preset: '1d' });
    expect(choiceOf({ action: 'display', trigger: '-PT15H' }, true)).toEqual({ kind: 'preset', preset: '1d9' });
    // The same trigger on a timed event is 15 hours before.
    expect(choiceOf({ action: 'display', trigger: '-PT15H' }, false)).toEqual({ kind: 'custom', custom: { amount: 15, unit: 'hours', when: 'before' } });
  });

  it('shows whole units as custom and anything else as kept', () => {
    expect(customOf('-PT90M')).toEqual({ amount: 90, unit: 'minutes', when: 'before' });
    expect(customOf('P2W')).toEqual({ amount: 2, unit: 'weeks', when: 'after' });
    expect(customOf('-P3D')).toEqual({ amount: 3, unit: 'days', when: 'before' });
    expect(customOf('-P1DT2H')).toBeUndefined();
    expect(choiceOf({ action: 'display', trigger: '-P1DT2H' }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'email', trigger: '-PT10M', attendees: ['a@b.c'] }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'display', trigger: '-PT10M', repeat: 2, repeat_every: 'PT5M' }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'display', trigger: '-PT10M', related: 'end' }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'display', at: '2031-03-12T08:00:00Z' }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'display', trigger: '-PT10M', description: 'Leave now' }, false)).toEqual({ kind: 'kept' });
    expect(choiceOf({ action: 'display', trigger: '-PT30S' }, false)).toEqual({ kind: 'kept' });
  });

  it('builds triggers of N units and refuses more than a year', () => {
    expect(customTrigger({ amount: 1, unit: 'minutes', when: 'before' })).toBe('-PT1M');
    expect(customTrigger({ amount: 2, unit: 'days', when: 'after' })).toBe('P2D');
    expect(customTrigger({ amount: 3, unit: 'weeks', when: 'before' })).toBe('-P3W');
    expect(customTrigger({ amount: 53, unit: 'weeks', when: 'before' })).toBeUndefined();
    expect(customTrigger({ amount: 1.5, unit: 'hours', when: 'before' })).toBeUndefined();
  });
});

describe('what is saved is what was shown', () => {
  const held: Reminder[] = [
    { action: 'email', trigger: '-PT15M', attendees: ['me@example.org'], summary: 'Soon' },
    { action: 'display', trigger: '-P1DT2H' },
    { action: 'audio', at: '2031-03-12T08:00:00Z' },
    { action: 'display', trigger: '-PT10M' },
    { action: 'display', trigger: '-PT90M' },
  ];

  it('gives back exactly what the API held when nothing changed', () => {
    const { reminders, errors } = rowsToReminders(rowsOf(held, false));
    expect(errors).toEqual({});
    expect(reminders).toEqual(held);
  });

  it('points at a half-typed amount and at a duplicate instead of saving them', () => {
    const rows = rowsOf([{ action: 'display', trigger: '-PT90M' }, { action: 'display', trigger: '-PT10M' }], false);
    const typing = rows.map((r, i) => (i === 0 ? { ...r, amount: '' } : r));
    expect(Object.values(rowsToReminders(typing).errors)).toEqual(['notify.error.amount']);
    const dup = rows.map((r, i) => (i === 0 ? { ...r, amount: '10' } : r));
    expect(rowsToReminders(dup).errors).toEqual({ [rows[1].id]: 'notify.error.duplicate' });
  });

  it('adds the first preset not in the list yet', () => {
    expect(nextNew([], false)).toEqual({ action: 'display', trigger: '-PT10M' });
    expect(nextNew([{ action: 'display', trigger: '-PT10M' }], false)).toEqual({ action: 'display', trigger: 'PT0S' });
    expect(nextNew([], true)).toEqual({ action: 'display', trigger: '-PT15H' });
  });
});

describe('reminders in words', () => {
  it('says when, what and how often', () => {
    expect(describe_({ action: 'display', trigger: '-PT10M' })).toBe('10 minutes before');
    expect(describe_({ action: 'display', trigger: '-PT1M' })).toBe('1 minute before');
    expect(describe_({ action: 'display', trigger: '-P1DT2H' })).toBe('1 day 2 hours before');
    expect(describe_({ action: 'display', trigger: '-PT15H' }, true)).toBe('1 day before at 09:00');
    expect(describe_({ action: 'display', trigger: 'PT9H' }, true)).toBe('On the day at 09:00');
    expect(describe_({ action: 'display', trigger: '-P1DT15H' }, true)).toBe('2 days before at 09:00');
    expect(describe_({ action: 'display', trigger: '-PT5M', related: 'end' })).toBe('5 minutes before the end');
    expect(describe_({ action: 'email', trigger: '-PT15M', attendees: ['a@b.c'] })).toBe('Email: 15 minutes before');
    expect(describe_({ action: 'audio', at: '2031-03-12T08:00:00Z' })).toBe('Sound: On 2031-03-12T08:00:00Z');
    expect(describe_({ action: 'display', trigger: '-PT15M', repeat: 2, repeat_every: 'PT5M', description: 'Leave now' })).toBe(
      '15 minutes before · again 2 times, every 5 minutes · “Leave now”',
    );
  });
});
