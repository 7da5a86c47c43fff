// @vitest-environment happy-dom
/**
 * A description (or excerpt) in the event editor: what is saved is what was shown, and a field the
 * user did not touch is not sent. Plain text read from another calendar is stored escaped
 * (`Use &lt;b&gt; &amp; co`), so its `<b>` must stay four characters through any edit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { eventFields, venueFields } from '@shared/schema/resources';
import '../../renderer/src/i18n';
import i18n from '../../renderer/src/i18n';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { eventToForm, formToBody, recordToForm, reverseBody } from '../../renderer/src/editor/form';
import { useLookups } from '../../renderer/src/state/lookups';
import { useSettings } from '../../renderer/src/state/settings';
import { useUi } from '../../renderer/src/state/ui';
import { useEvents } from '../../renderer/src/state/events';
import { useUndo } from '../../renderer/src/state/undo';
import { renderContent } from '@shared/content';
import { htmlAsText } from '../../renderer/src/calendar/EventDetails';
import { makeEvent, makeVenue, mockApi } from './helpers';
import { openEditor } from './open-editor';

/** What the API answers for content stored as `Use &lt;b&gt; &amp; co` (a Thunderbird DESCRIPTION). */
const LITERAL = '<p>Use &lt;b&gt; &amp; co</p>';
/** Real markup, as the website or Outlook writes it. */
const MARKUP = '<p>Bring <strong>food</strong> &amp; press &lt;Enter&gt;</p>\n<ul>\n<li>chairs</li>\n</ul>';

beforeEach(async () => {
  useSettings.setState({ uiLanguage: 'en', contentLanguage: 'en' });
  await i18n.changeLanguage('en');
  useLookups.setState({ categories: [], tags: [], venues: [], organizers: [], loaded: true });
  useEvents.setState({ events: [], query: null });
  useUndo.getState().clear();
});
afterEach(cleanup);

const description = () => screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement;
const saved = (e: ReturnType<typeof makeEvent>) => ({ body: e });

describe('the editor’s description: what is saved is what was shown', () => {
  it('shows escaped plain text as its text and, with only the title changed, sends no description', async () => {
    const e = makeEvent({ id: 5, title: 'Meet', description: LITERAL, excerpt: LITERAL });
    const api = mockApi({ 'PATCH events/5': saved(e) });
    openEditor(e);
    expect(description().value).toBe('Use <b> & co');
    expect(screen.queryByText(/edited as HTML/)).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Meet again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/5')).toHaveLength(1));
    expect(api.to('PATCH', 'events/5')[0].body).toEqual({ title: 'Meet again' });
  });

  it('keeps a literal <b> literal when a line is added: the text is sent escaped', async () => {
    const e = makeEvent({ id: 5, title: 'Meet', description: LITERAL });
    const api = mockApi({ 'PATCH events/5': saved(e) });
    openEditor(e);
    fireEvent.change(description(), { target: { value: 'Use <b> & co\nBring 1 < 2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/5')).toHaveLength(1));
    expect(api.to('PATCH', 'events/5')[0].body).toEqual({ description: 'Use &lt;b&gt; &amp; co\nBring 1 &lt; 2' });
  });

  it('takes what is typed in a new event as text', async () => {
    const draft = { start_date: '2031-03-12 10:00:00', end_date: '2031-03-12 11:00:00', all_day: false, timezone: 'UTC' };
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 50 }) }, 'GET events': { body: { events: [], total: 0, total_pages: 0 } } });
    useUi.setState({ editor: { kind: 'create', draft } });
    render(<EventEditor target={{ kind: 'create', draft }} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Title' }), { target: { value: 'Tags' } });
    fireEvent.change(description(), { target: { value: 'Wrap it in <b>…</b> & go' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({ title: 'Tags', description: 'Wrap it in &lt;b&gt;…&lt;/b&gt; &amp; go' });
  });

  it('edits a description with real markup as its source: the markup and its escaped text are kept', async () => {
    const e = makeEvent({ id: 6, title: 'Picnic', description: MARKUP });
    const api = mockApi({ 'PATCH events/6': saved(e) });
    openEditor(e);
    // The API's own paragraph is taken off; the rest is the source, entities as written.
    const source = 'Bring <strong>food</strong> &amp; press &lt;Enter&gt;\n\n<ul>\n<li>chairs</li>\n</ul>';
    expect(description().value).toBe(source);
    // Said where it is edited, as the textarea itself shows no formatting.
    const hint = 'It holds formatting, so it is edited as HTML: its tags are formatting, not text.';
    expect(document.getElementById(description().getAttribute('aria-describedby')!)?.textContent).toBe(hint);
    fireEvent.change(description(), { target: { value: source.replace('chairs', 'chairs and a <em>rug</em>') } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PATCH', 'events/6')).toHaveLength(1));
    expect(api.to('PATCH', 'events/6')[0].body).toEqual({ description: 'Bring <strong>food</strong> &amp; press &lt;Enter&gt;\n\n<ul>\n<li>chairs and a <em>rug</em></li>\n</ul>' });
  });

  it('a duplicate carries the description as it is: a literal <b> stays literal', async () => {
    const from = makeEvent({ id: 5, title: 'Meet', description: LITERAL });
    const draft = { start_date: from.start_date, end_date: from.end_date, all_day: false, timezone: 'UTC', title: 'Meet' };
    const api = mockApi({ 'POST events': { status: 201, body: makeEvent({ id: 51 }) }, 'GET events': { body: { events: [], total: 0, total_pages: 0 } } });
    useUi.setState({ editor: { kind: 'create', draft, from } });
    render(<EventEditor target={{ kind: 'create', draft, from }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', 'events')).toHaveLength(1));
    expect(api.to('POST', 'events')[0].body).toMatchObject({ description: 'Use &lt;b&gt; &amp; co' });
  });
});

describe('every other path that writes a description follows the same rule', () => {
  it('undo puts back the text it showed, escaped, and markup as its source', () => {
    expect(reverseBody(eventFields, makeEvent({ description: LITERAL, excerpt: '<p>a &amp; b<br />\nc</p>' }), ['description', 'excerpt'])).toEqual({
      description: 'Use &lt;b&gt; &amp; co',
      excerpt: 'a &amp; b\nc',
    });
    expect(reverseBody(eventFields, makeEvent({ description: MARKUP }), ['description'])).toEqual({
      description: 'Bring <strong>food</strong> &amp; press &lt;Enter&gt;\n\n<ul>\n<li>chairs</li>\n</ul>',
    });
  });

  it('a venue’s description in its dialog: text escaped, markup kept', () => {
    const plain = recordToForm(makeVenue(3, 'Mill', { description: LITERAL }), venueFields);
    expect(plain.description).toBe('Use <b> & co');
    expect(formToBody(venueFields, { ...plain, description: 'Use <b> & co!' }, plain)).toEqual({ description: 'Use &lt;b&gt; &amp; co!' });
    const rich = recordToForm(makeVenue(3, 'Mill', { description: '<p><a href="https://mill.example">Mill</a> &amp; co</p>' }), venueFields);
    expect(rich.description).toBe('<a href="https://mill.example">Mill</a> &amp; co');
    expect(formToBody(venueFields, { ...rich, description: `${rich.description}!` }, rich)).toEqual({ description: '<a href="https://mill.example">Mill</a> &amp; co!' });
  });

  it('text round trips through the API’s rendering unchanged, paragraphs and line breaks included', () => {
    const v = eventToForm(makeEvent({ description: '<p>One &amp; two<br />\nthree</p>\n<p>x &lt; y</p>' }), eventFields);
    expect(v.description).toBe('One & two\nthree\n\nx < y');
    expect(formToBody(eventFields, v).description).toBe('One &amp; two\nthree\n\nx &lt; y');
  });
});

describe('read and saved again unchanged, the API rendering what is sent as it rendered what was read', () => {
  // What was stored (written by Almanac, a website or Outlook), as the API renders it: the same HTML again.
  const exact = [
    'Use &lt;b&gt; &amp; co',
    'Line one\nLine two\n\nAfter a blank line: 1 &lt; 2 &amp; 3 &gt; 2',
    '<b>Bring</b> food\nand drinks\n\n<ul>\n<li>chairs</li>\n<li><a href="https://x.example/?a=1&amp;b=2">map</a></li>\n</ul>\n\nThanks &lt;3',
    '<p class="intro">Styled</p>\n<p>a\nb</p>',
    '<div>Outlook<br>line</div><p>two</p>',
    '<div>\n<p>x</p>\ny</div>',
    'first<br />second &amp; <em>third</em>',
  ];
  it.each(exact)('%j', (content) => {
    const html = renderContent(content);
    const sent = formToBody(eventFields, eventToForm(makeEvent({ description: html }), eventFields)).description as string;
    expect(renderContent(sent)).toBe(html);
  });

  // Text a client of the API stored unescaped: sent escaped, it reads as the same text.
  const raw = ['Line one\nLine two\n\n1 < 2 & 3 > 2', 'Tom & Jerry’s “show” &#8211; tonight', '<p>one\ntwo</p>\n<p>three<br>four</p>'];
  it.each(raw)('%j', (content) => {
    const html = renderContent(content);
    const sent = formToBody(eventFields, eventToForm(makeEvent({ description: html }), eventFields)).description as string;
    expect(htmlAsText(renderContent(sent))).toBe(htmlAsText(html));
  });
});
