import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, closeDatabase } from '/work/main/electron/server/store/db';
import { createStore } from '/work/main/electron/server/store';
import { measureWriteFloor } from '/work/main/bench/transfer';
const N = 5000;
const siteDir = mkdtempSync(join(tmpdir(), 'floor-'));
const db = openDatabase(join(siteDir, 'almanac.sqlite'));
const store = createStore(db);
const ctx = { lang: 'en' as const, now: new Date(), siteZone: 'UTC' };
store.write(() => {
  const venue = store.venues.create({ venue: 'Main Hall', address: '1 Main St' }, ctx).id;
  const organizer = store.organizers.create({ organizer: 'The Club', email: 'club@example.org' }, ctx).id;
  for (let i = 0; i < N; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    store.events.create({ title: `Event ${i}`, description: `About event ${i}\nSecond line`, start_date: `2031-${month}-${day} 10:00:00`, end_date: `2031-${month}-${day} 11:00:00`, timezone: 'Europe/Lisbon', venue, organizer: [organizer], categories: [`Cat ${i % 10}`], tags: [`tag${i % 7}`], cost: ['10'] }, ctx);
  }
});
closeDatabase(db);
for (let i = 0; i < 3; i++) console.log(measureWriteFloor(join(siteDir, 'almanac.sqlite')));
