// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { htmlAsText, mapLink } from '../../renderer/src/calendar/EventDetails';
import { makeVenue } from './helpers';

describe('the details card’s description', () => {
  it('shows the text of the HTML, paragraphs and breaks kept, no tags', () => {
    expect(htmlAsText('<p><b>Bring</b> a chair.</p>\n<p>Doors at 7.<br />Bar opens at 6.</p>')).toBe('Bring a chair.\n\nDoors at 7.\nBar opens at 6.');
    expect(htmlAsText('<ul><li>One</li><li>Two</li></ul>')).toBe('One\nTwo');
    expect(htmlAsText('Fish &amp; chips &lt;3')).toBe('Fish & chips <3');
    // Another calendar's plain text, stored escaped: its tag is text.
    expect(htmlAsText('<p>Use &lt;b&gt; &amp; co<br />\nfor bold</p>')).toBe('Use <b> & co\nfor bold');
  });

  it('never runs or shows what scripts and styles hold', () => {
    expect(htmlAsText('<p>Hi</p><script>alert(1)</script><style>p{}</style><img src=x onerror="alert(2)">')).toBe('Hi');
  });
});

describe('the details card’s map link', () => {
  it('points at the coordinates when the venue has them, else searches its address', () => {
    expect(mapLink(makeVenue(1, 'Town Hall', { geo_lat: 39.8, geo_lng: -89.64 }))).toBe('https://www.openstreetmap.org/?mlat=39.8&mlon=-89.64#map=16/39.8/-89.64');
    expect(mapLink(makeVenue(2, 'Casa', { address: 'Av. da Boavista 604', city: 'Porto', country: 'Portugal' }))).toBe(
      'https://www.openstreetmap.org/search?query=Av.%20da%20Boavista%20604%2C%20Porto%2C%20Portugal',
    );
    expect(mapLink(makeVenue(3, 'Nowhere'))).toBeNull();
  });
});
