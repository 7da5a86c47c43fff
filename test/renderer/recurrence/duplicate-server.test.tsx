// @vitest-environment happy-dom
/**
 * "Duplicate" on an occurrence of a repeating event, against a real server: the copy is a new
 * series with the same rule from that occurrence's date, and the original series is untouched.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Event } from '@shared/api/records';
import i18n from '../../../renderer/src/i18n';
import { ApiClient } from '../../../renderer/src/api/client';
import { setApiClient } from '../../../renderer/src/state/api';
import { EventDetails } from '../../../renderer/src/calendar/EventDetails';
import { EventEditor } from '../../../renderer/src/editor/EventEditor';
import { useLookups } from '../../../renderer/src/state/lookups';
import { useSettings } from '../../../renderer/src/state/settings';
import { useUi } from '../../../renderer/src/state/ui';
import { startTestServer, type TestServer } from '../../helpers/server';
import { nodeFetch } from '../helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  setApiClient(new ApiClient({ base: `${t.server.url}/cal/events/v1/`, token: 'test-token-0123456789abcdef', language: () => 'en', fetch: nodeFetch as typeof fetch }));
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useLookups.setState({ categories: [], tags: [], venues: [], organizers: [], loaded: true });
});
afterAll(async () => {
  setApiClient(null);
  await t?.close();
});

it('makes a new series with the same rule from that occurrence', async () => {
  const first = (await t.api('post', 'events').send({ title: 'Yoga', start_date: '2039-03-01 18:00:00', end_date: '2039-03-01 19:00:00', timezone: 'UTC', recurrence: 'FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10' })).body as Event;
  const list = await t.api('get', 'events').query({ post_parent: first.id, start_date: '2039-03-01', end_date: '2039-04-30', per_page: 50 });
  const fourth = (list.body.events as Event[])[2];
  expect(fourth.start_date).toBe('2039-03-10 18:00:00');
  render(<EventDetails event={fourth} />);
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Yoga' })).getByRole('button', { name: 'Duplicate' }));
  const target = useUi.getState().editor!;
  cleanup();
  render(<EventEditor target={target} />);
  fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Yoga (copy)' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(useUi.getState().editor).toBeNull());
  const copies = await t.api('get', 'events').query({ search: 'copy', start_date: '2039-01-01', end_date: '2039-12-31', per_page: 50 });
  expect((copies.body.events as Event[]).map((e) => e.start_date)).toEqual([
    '2039-03-10 18:00:00',
    '2039-03-15 18:00:00',
    '2039-03-17 18:00:00',
    '2039-03-22 18:00:00',
    '2039-03-24 18:00:00',
    '2039-03-29 18:00:00',
    '2039-03-31 18:00:00',
    '2039-04-05 18:00:00',
    '2039-04-07 18:00:00',
    '2039-04-12 18:00:00',
  ]);
  const originals = await t.api('get', 'events').query({ post_parent: first.id, start_date: '2039-01-01', end_date: '2039-12-31', per_page: 50 });
  expect(originals.body.events.length).toBe(9);
});
