// @vitest-environment happy-dom
/**
 * Issue 27 (what switchers missed): addresses in a description and a place are links that open
 * outside the app (target=_blank: a new tab, or the system browser through the desktop app's
 * window-open guard), and a video call gets a "Join" button.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import { EventDetails } from '../../renderer/src/calendar/EventDetails';
import { linkParts, videoCallLink } from '../../renderer/src/lib/links';
import { useSettings } from '../../renderer/src/state/settings';
import { makeEvent, makeVenue } from './helpers';

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

describe('links in the details card', () => {
  it('makes the addresses of the description and the place links that open outside the app', () => {
    const e = makeEvent({
      id: 3,
      title: 'Planning',
      description: '<p>Agenda at https://docs.example.org/agenda?x=1.</p><p>Questions: ana@example.org or www.example.com</p>',
      venue: makeVenue(4, 'https://meet.google.com/abc-defg-hij', { address: 'Room 2' }) as never,
    });
    render(<EventDetails event={e} />);
    const card = screen.getByRole('dialog', { name: 'Planning' });
    const links = within(card).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['https://docs.example.org/agenda?x=1', 'https://docs.example.org/agenda?x=1', '_blank', 'noopener noreferrer'],
        ['ana@example.org', 'mailto:ana@example.org', '_blank', 'noopener noreferrer'],
        ['www.example.com', 'https://www.example.com', '_blank', 'noopener noreferrer'],
        ['https://meet.google.com/abc-defg-hij', 'https://meet.google.com/abc-defg-hij', '_blank', 'noopener noreferrer'],
      ]),
    );
    const join = within(card).getByRole('link', { name: 'Join the video call on meet.google.com' });
    expect(join.textContent).toBe('Join');
    expect(join.getAttribute('href')).toBe('https://meet.google.com/abc-defg-hij');
    expect(join.getAttribute('target')).toBe('_blank');
  });

  it('no Join without a call; only web and mail addresses become links', () => {
    render(<EventDetails event={makeEvent({ id: 5, title: 'Dentist', description: 'Bring javascript:alert(1) and file:///etc/passwd' })} />);
    const card = screen.getByRole('dialog', { name: 'Dentist' });
    expect(within(card).queryAllByRole('link')).toHaveLength(0);
  });

  it('finds Zoom, Teams and Jitsi calls, trailing punctuation left out', () => {
    expect(videoCallLink(['Join: https://us02web.zoom.us/j/123456?pwd=abc.'])).toBe('https://us02web.zoom.us/j/123456?pwd=abc');
    expect(videoCallLink(['x', 'https://teams.microsoft.com/l/meetup-join/19%3a'])).toBe('https://teams.microsoft.com/l/meetup-join/19%3a');
    expect(videoCallLink(['(https://meet.jit.si/Almanac)'])).toBe('https://meet.jit.si/Almanac');
    expect(videoCallLink(['https://example.org/zoom.us'])).toBeNull();
    expect(linkParts('see https://a.example/b, then')).toEqual(['see ', { href: 'https://a.example/b', text: 'https://a.example/b' }, ', then']);
  });
});
