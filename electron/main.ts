/**
 * The Electron main process: starts the embedded server and shows the calendar. Kept thin; the
 * server and every piece of logic live in plain modules that tests run under Node.
 */
import { app, BrowserWindow } from 'electron';
import { createServer, DEFAULT_PORT, type AlmanacServer } from './server';
import { defaultDataDir } from './server/data-dir';

let server: AlmanacServer | undefined;

async function start() {
  server = await createServer({
    dataDir: process.env.ALMANAC_DATA_DIR ?? defaultDataDir(),
    port: DEFAULT_PORT,
    fallbackToFreePort: true,
  });
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true },
  });
  await win.loadURL(server.loginUrl);
}

app.whenReady().then(start, (err) => {
  console.error(err);
  app.exit(1);
});

app.on('window-all-closed', () => app.quit());
app.on('will-quit', (event) => {
  if (!server) return;
  event.preventDefault();
  const closing = server;
  server = undefined;
  void closing.close().finally(() => app.exit(0));
});
