/** `npm run cli -- add "TEXT"`: quick add on a data directory, and through the running app. */
import { describe, expect, it } from 'vitest';
import { createServer, silentLogger } from '../../electron/server';
import { tempDir } from '../helpers/temp-dir';
import { runCli } from '../helpers/cli';

const titles = async (apiRoot: string, token: string, lang = 'en') => {
  const res = await fetch(`${apiRoot}events?start_date=2030-01-01&end_date=2030-12-31&i18n_language=${lang}`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { events: Array<{ title: string; start_date: string }> }).events;
};

describe('CLI add', { timeout: 60_000 }, () => {
  it('adds to a data directory, prints what it made, and a dry run saves nothing', async () => {
    const dir = tempDir('almanac-cli-add-');
    const made = await runCli(['add', 'Dentist June 3 2030 3pm for 45 minutes remind me 1 hour before #health', '--data-dir', dir]);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toMatch(/Added "Dentist" \(event \d+\)/);
    expect(made.out).toMatch(/when: +2030-06-03 15:00–15:45/);
    expect(made.out).toMatch(/reminders: +1 hour before/);
    expect(made.out).toMatch(/categories: +health/);

    const dry = await runCli(['add', 'Ioga toda segunda 7h a partir de 2 de junho de 2030', '--lang', 'pt-br', '--dry-run', '--data-dir', dir]);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/Dry run, nothing saved\. Would add "Ioga"/);
    expect(dry.out).toMatch(/when: +2030-06-03 07:00–08:00/);
    expect(dry.out).toMatch(/repeats: +FREQ=WEEKLY;BYDAY=MO/);

    const refused = await runCli(['add', 'Comprar leite', '--lang', 'pt-br', '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/text: Não diz dia nem hora/);

    // What is in the file: the one event, none of the dry run's or the refusal's.
    const server = await createServer({ dataDir: dir, port: 0, log: silentLogger, announce: false });
    try {
      expect((await titles(server.apiRoot, server.token)).map((e) => [e.title, e.start_date])).toEqual([['Dentist', '2030-06-03 15:00:00']]);
      expect(await titles(server.apiRoot, server.token, 'pt-br')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('goes through the running app when there is one', async () => {
    const dir = tempDir('almanac-cli-add-');
    const server = await createServer({ dataDir: dir, port: 0, log: silentLogger });
    try {
      const res = await runCli(['add', 'Cena el 5 de junio de 2030 a las 21h', '--lang', 'es', '--data-dir', dir]);
      expect(res.code, res.err).toBe(0);
      expect(res.out).toMatch(/Added "Cena"/);
      // The app's own connection sees it at once: it made it.
      expect((await titles(server.apiRoot, server.token, 'es')).map((e) => [e.title, e.start_date])).toEqual([['Cena', '2030-06-05 21:00:00']]);
    } finally {
      await server.close();
    }
  });
});
