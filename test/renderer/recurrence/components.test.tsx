// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import i18n from '../../../renderer/src/i18n';
import { useSettings } from '../../../renderer/src/state/settings';
import { RepeatControl } from '../../../renderer/src/recurrence/RepeatControl';
import { askScope, ScopeDialogHost, type Scope } from '../../../renderer/src/recurrence/ScopeDialog';
import { fromRecurrence, toRecurrence, validateRepeat, type RepeatStart, type RepeatValue } from '../../../renderer/src/recurrence/rule';

/** Thursday 13 March 2031, 10:00 UTC. */
const START: RepeatStart = { start: '2031-03-13 10:00:00', allDay: false, zone: 'UTC' };

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

/** The control as a form holds it, with what it would send shown for the test to read. */
function Harness({ initial = { kind: 'none' } as RepeatValue, start = START }: { initial?: RepeatValue; start?: RepeatStart }) {
  const [value, setValue] = useState<RepeatValue>(initial);
  const errors = validateRepeat(value, start);
  return (
    <>
      <RepeatControl value={value} onChange={setValue} start={start} errors={errors} />
      <output data-testid="sent">{JSON.stringify(toRecurrence(value, start, null))}</output>
    </>
  );
}
const sent = () => JSON.parse(screen.getByTestId('sent').textContent!);

describe('RepeatControl', () => {
  it('is a select named "Repeat" that shows only what the chosen frequency needs', () => {
    render(<Harness />);
    const repeat = screen.getByRole('combobox', { name: 'Repeat' });
    expect((repeat as HTMLSelectElement).value).toBe('none');
    expect(within(repeat).getAllByRole('option').map((o) => o.textContent)).toEqual(['Does not repeat', 'Daily', 'Weekly', 'Monthly', 'Yearly']);
    expect(screen.queryByRole('spinbutton', { name: 'Every' })).toBeNull();
    expect(sent()).toBeNull();

    fireEvent.change(repeat, { target: { value: 'weekly' } });
    // Weekly starts on the start's own weekday.
    expect((screen.getByRole('checkbox', { name: 'Thursday' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Tuesday' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('Every Thursday')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Monthly on' })).toBeNull();
    expect(sent()).toEqual({ rules: ['FREQ=WEEKLY;BYDAY=TH'], rdates: [], exdates: [] });

    fireEvent.change(repeat, { target: { value: 'monthly' } });
    expect(screen.queryByRole('checkbox', { name: 'Thursday' })).toBeNull();
    const monthly = screen.getByRole('combobox', { name: 'Monthly on' });
    // 13 March 2031 is the second Thursday, not the last: no "last" choice.
    expect(within(monthly).getAllByRole('option').map((o) => o.textContent)).toEqual(['Day 13', 'The second Thursday']);
    fireEvent.change(monthly, { target: { value: 'nth' } });
    expect(screen.getByText('Monthly on the second Thursday')).toBeTruthy();
    expect(sent().rules).toEqual(['FREQ=MONTHLY;BYDAY=2TH']);

    fireEvent.change(repeat, { target: { value: 'none' } });
    expect(screen.queryByRole('combobox', { name: 'Monthly on' })).toBeNull();
    expect(sent()).toBeNull();
  });

  it('builds "every Tuesday and Thursday, 10 times" and says so', () => {
    render(<Harness />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'weekly' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Tuesday' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Ends' }), { target: { value: 'count' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Number of times' }), { target: { value: '10' } });
    expect(screen.getByText('Every Tuesday and Thursday, 10 times')).toBeTruthy();
    expect(sent().rules).toEqual(['FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10']);

    fireEvent.change(screen.getByRole('spinbutton', { name: 'Every' }), { target: { value: '2' } });
    expect(screen.getByText('weeks')).toBeTruthy();
    expect(screen.getByText('Every 2 weeks on Tuesday and Thursday, 10 times')).toBeTruthy();
    expect(sent().rules).toEqual(['FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=10']);
  });

  it('marks what is wrong next to it, and the summary gives way to the error', () => {
    render(<Harness />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repeat' }), { target: { value: 'weekly' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Thursday' }));
    expect(screen.getByText('Pick at least one day of the week.')).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Friday' }));
    expect(screen.queryByText('Pick at least one day of the week.')).toBeNull();

    fireEvent.change(screen.getByRole('combobox', { name: 'Ends' }), { target: { value: 'count' } });
    const count = screen.getByRole('spinbutton', { name: 'Number of times' });
    fireEvent.change(count, { target: { value: '0' } });
    expect(count.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(count.getAttribute('aria-describedby')!)?.textContent).toBe('Enter how many times, from 1 to 9999.');
    expect(screen.queryByText(/Every Friday/)).toBeNull();

    fireEvent.change(screen.getByRole('combobox', { name: 'Ends' }), { target: { value: 'until' } });
    const until = screen.getByLabelText('End date');
    fireEvent.change(until, { target: { value: '2031-03-12' } });
    expect(until.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The end date is before the event starts.')).toBeTruthy();
    fireEvent.change(until, { target: { value: '2031-06-01' } });
    expect(screen.getByText('Every Friday until June 1, 2031')).toBeTruthy();
    expect(sent().rules).toEqual(['FREQ=WEEKLY;BYDAY=FR;UNTIL=20310601T235959Z']);
  });

  it('shows a rule it cannot represent as "Custom rule" and keeps it until another choice is made', () => {
    const original = { rules: ['FREQ=MONTHLY;BYDAY=TU,TH;BYSETPOS=-1'], rdates: [], exdates: [] };
    render(<Harness initial={fromRecurrence(original, START)} />);
    const repeat = screen.getByRole('combobox', { name: 'Repeat' }) as HTMLSelectElement;
    expect(repeat.value).toBe('custom');
    expect(repeat.selectedOptions[0].textContent).toBe('Custom rule');
    expect(screen.getByText('Custom rule: FREQ=MONTHLY;BYDAY=TU,TH;BYSETPOS=-1')).toBeTruthy();
    fireEvent.change(repeat, { target: { value: 'daily' } });
    expect(within(repeat).queryByRole('option', { name: 'Custom rule' })).toBeNull();
    expect(sent().rules).toEqual(['FREQ=DAILY']);
  });

  it('speaks the interface language', async () => {
    useSettings.setState({ uiLanguage: 'pt-br' });
    await act(() => i18n.changeLanguage('pt-br'));
    render(<Harness />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Repetir' }), { target: { value: 'weekly' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'terça-feira' }));
    expect(screen.getByText('Toda terça-feira e quinta-feira')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'Repetir' }), { target: { value: 'monthly' } });
    expect(within(screen.getByRole('combobox', { name: 'Dia do mês' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Dia 13', 'Na segunda quinta-feira']);
  });
});

describe('the scope question', () => {
  async function answer(kind: 'edit' | 'delete', click: string | null, scopes?: Scope[]) {
    cleanup();
    render(<ScopeDialogHost />);
    let result: Promise<Scope | null>;
    act(() => {
      result = askScope(kind, 'Yoga', scopes);
    });
    const dialog = screen.getByRole('dialog', { name: kind === 'edit' ? 'Edit repeating event' : 'Delete repeating event' });
    const names = within(dialog).getAllByRole('button').map((b) => b.textContent);
    if (click) fireEvent.click(within(dialog).getByRole('button', { name: click }));
    else fireEvent(dialog, new Event('cancel', { cancelable: true }));
    const chosen = await result!;
    expect(screen.queryByRole('dialog')).toBeNull();
    return { chosen, names, text: dialog.textContent };
  }

  it('offers this, following and all, and resolves to the choice', async () => {
    const r = await answer('edit', 'This and following events');
    expect(r.chosen).toBe('following');
    expect(r.names).toEqual(['This event', 'This and following events', 'All events', 'Cancel']);
    expect(r.text).toContain('“Yoga” repeats.');
    expect((await answer('delete', 'All events')).chosen).toBe('all');
    expect((await answer('delete', 'This event')).chosen).toBe('this');
  });

  it('resolves to null on Cancel and on Escape', async () => {
    expect((await answer('edit', 'Cancel')).chosen).toBeNull();
    expect((await answer('edit', null)).chosen).toBeNull();
  });

  it('leaves out the answers that make no sense', async () => {
    const r = await answer('edit', 'All events', ['following', 'all']);
    expect(r.names).toEqual(['This and following events', 'All events', 'Cancel']);
  });
});
