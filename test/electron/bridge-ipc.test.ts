import { describe, expect, it } from 'vitest';
import { createCommandRouter, parseExportArgs, parseImportOptions, registerBridgeIpc, BridgeArgumentError } from '../../electron/main/bridge-ipc';
import { IPC, type DesktopCommand } from '../../shared/desktop-bridge';
import { FakeIpcMain, FakeWebContents } from './fake-electron';

const APP = 'http://127.0.0.1:4780';

describe('arguments from the page', () => {
  it('accepts the typed import options and refuses anything else', () => {
    expect(parseImportOptions(undefined)).toEqual({});
    expect(parseImportOptions({ format: 'csv', kind: 'venues', dryRun: true, skipInvalid: false, language: 'pt-br', useLastFile: true })).toEqual({
      format: 'csv',
      kind: 'venues',
      dryRun: true,
      skipInvalid: false,
      language: 'pt-br',
      useLastFile: true,
    });
    for (const bad of [{ format: 'xml' }, { kind: 'people' }, { dryRun: 'yes' }, { language: 'fr' }, { file: '/etc/passwd' }, 'ics', [1]]) {
      expect(() => parseImportOptions(bad), JSON.stringify(bad)).toThrow(BridgeArgumentError);
    }
  });

  it('accepts an export format with a language and list filters', () => {
    expect(parseExportArgs('ics', { language: 'es', filters: { start_date: '2030-01-01', categories: [1, 2], featured: true } })).toEqual({
      format: 'ics',
      options: { language: 'es', filters: { start_date: '2030-01-01', categories: [1, 2], featured: true } },
    });
    expect(parseExportArgs('json', undefined)).toEqual({ format: 'json', options: {} });
    for (const [format, options] of [
      ['csv', {}],
      ['ics', { path: '/tmp/x' }],
      ['ics', { filters: { 'a&b': 1 } }],
      ['ics', { filters: { format: 'json' } }],
      ['ics', { filters: { search: { $gt: 1 } } }],
    ] as const) {
      expect(() => parseExportArgs(format, options)).toThrow(BridgeArgumentError);
    }
  });
});

describe('menu commands', () => {
  it('go to the page while it listens, else to the main process', () => {
    const contents = new FakeWebContents();
    const fellBack: DesktopCommand[] = [];
    const router = createCommandRouter({ target: () => contents, fallback: (c) => fellBack.push(c) });
    const cmd: DesktopCommand = { name: 'show-view', view: 'week' };
    expect(router.dispatch(cmd)).toBe('fallback');
    router.setListeners(contents.id, 1);
    expect(router.dispatch(cmd)).toBe('sent');
    expect(contents.sent).toEqual([{ channel: IPC.command, args: [cmd] }]);
    router.reset(contents.id); // the page reloaded
    expect(router.dispatch(cmd)).toBe('fallback');
    router.setListeners(contents.id, 0);
    expect(router.dispatch(cmd)).toBe('fallback');
    expect(fellBack).toHaveLength(3);
  });
});

describe('IPC handlers', () => {
  function setup() {
    const ipcMain = new FakeIpcMain();
    const contents = new FakeWebContents();
    const calls: unknown[][] = [];
    const router = createCommandRouter({ target: () => contents, fallback: () => {} });
    const dispose = registerBridgeIpc<object>({
      ipcMain,
      appOrigin: () => APP,
      config: () => ({ apiBase: `${APP}/cal/events/v1/`, token: 't'.repeat(43), version: '0.1.0' }),
      windowOf: () => ({}),
      importFile: async (_w, o) => (calls.push(['import', o]), { status: 'cancelled' }),
      exportFile: async (_w, f, o) => (calls.push(['export', f, o]), { status: 'cancelled' }),
      openDataFolder: async () => void calls.push(['open']),
      router,
    });
    return { ipcMain, contents, calls, router, dispose };
  }

  it('answers the app’s pages, checked', async () => {
    const { ipcMain, contents, calls } = setup();
    expect(await ipcMain.invoke(contents, `${APP}/`, IPC.importFile, { format: 'ics' })).toEqual({ status: 'cancelled' });
    await ipcMain.invoke(contents, `${APP}/#/event/x`, IPC.exportFile, 'json', {});
    await expect(ipcMain.invoke(contents, `${APP}/`, IPC.exportFile, 'pdf', {})).rejects.toThrow(/format/);
    expect(calls).toEqual([['import', { format: 'ics' }], ['export', 'json', {}]]);
  });

  it('refuses every other origin', async () => {
    const { ipcMain, contents, calls, router } = setup();
    for (const url of ['https://example.com/', 'http://127.0.0.1:4781/', 'file:///x', 'about:blank']) {
      expect(ipcMain.sendSync(contents, url, IPC.config)).toBeNull();
      await expect(ipcMain.invoke(contents, url, IPC.importFile, {})).rejects.toThrow(/Not available/);
      ipcMain.send(contents, url, IPC.commandListeners, 1);
    }
    expect(calls).toEqual([]);
    expect(router.listens(contents.id)).toBe(false);
  });

  it('can be removed', () => {
    const { ipcMain, dispose } = setup();
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(ipcMain.listenerCount(IPC.config)).toBe(0);
  });
});
