/**
 * The built preload (out/preload/preload.cjs, as Electron loads it) exposes exactly the typed
 * bridge of shared/desktop-bridge.ts, and nothing of Electron: run in a `vm` context with a fake
 * `contextBridge` and `ipcRenderer` that record what it does.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { BRIDGE_KEYS, BRIDGE_NAME, IPC, type BridgeConfig, type DesktopBridge, type DesktopCommand } from '../../shared/desktop-bridge';
import { Emitter, ROOT } from './fake-electron';

const PRELOAD = join(ROOT, 'out', 'preload', 'preload.cjs');
const built = existsSync(PRELOAD);
if (!built) console.warn(`[electron] skipped the preload check: ${PRELOAD} is missing. Run "npm run build" first ("npm test" does).`);

class FakeIpcRenderer extends Emitter {
  readonly invoked: unknown[][] = [];
  readonly sentToMain: unknown[][] = [];
  readonly syncAsked: string[] = [];
  constructor(private readonly config: BridgeConfig | null) {
    super();
  }
  sendSync(channel: string) {
    this.syncAsked.push(channel);
    return channel === IPC.config ? this.config : undefined;
  }
  async invoke(...args: unknown[]) {
    this.invoked.push(args);
    return { status: 'cancelled' };
  }
  send(...args: unknown[]) {
    this.sentToMain.push(args);
  }
  removeListener(event: string, listener: (...a: unknown[]) => unknown) {
    return this.off(event, listener);
  }
}

const CONFIG: BridgeConfig = { apiBase: 'http://127.0.0.1:4780/cal/events/v1/', token: 'x'.repeat(43), version: '0.1.0' };

function runPreload(config: BridgeConfig | null = CONFIG) {
  const ipcRenderer = new FakeIpcRenderer(config);
  const exposed: Array<{ name: string; api: unknown }> = [];
  const required: string[] = [];
  const contextBridge = { exposeInMainWorld: (name: string, api: unknown) => exposed.push({ name, api }) };
  const sandbox = {
    require: (id: string) => {
      required.push(id);
      if (id === 'electron') return { contextBridge, ipcRenderer };
      throw new Error(`a sandboxed preload cannot require "${id}"`);
    },
    module: { exports: {} },
    exports: {},
  };
  vm.runInNewContext(readFileSync(PRELOAD, 'utf8'), sandbox, { filename: PRELOAD });
  return { ipcRenderer, exposed, required };
}

describe.skipIf(!built)('built preload', () => {
  it('exposes exactly the keys of DesktopBridge as window.almanac', () => {
    const { exposed, required } = runPreload();
    expect(exposed.map((e) => e.name)).toEqual([BRIDGE_NAME]);
    expect(Object.keys(exposed[0].api as object).sort()).toEqual([...BRIDGE_KEYS].sort());
    expect(required).toEqual(['electron']);
  });

  it('hands over the values the main process gave it', () => {
    const { exposed, ipcRenderer } = runPreload();
    const bridge = exposed[0].api as DesktopBridge;
    expect(ipcRenderer.syncAsked).toEqual([IPC.config]);
    expect({ apiBase: bridge.apiBase, token: bridge.token, version: bridge.version }).toEqual(CONFIG);
    for (const key of BRIDGE_KEYS) {
      const kind = typeof bridge[key];
      expect(kind, key).toBe(['apiBase', 'token', 'version'].includes(key) ? 'string' : 'function');
    }
  });

  it('exposes nothing where the main process does not answer (a page of another origin)', () => {
    expect(runPreload(null).exposed).toEqual([]);
  });

  it('turns the calls into IPC invocations on the typed channels', async () => {
    const { exposed, ipcRenderer } = runPreload();
    const bridge = exposed[0].api as DesktopBridge;
    await bridge.importFile({ format: 'csv', kind: 'venues', dryRun: true });
    await bridge.importFile();
    await bridge.exportFile('ics', { language: 'es' });
    await bridge.openDataFolder();
    expect(ipcRenderer.invoked).toEqual([
      [IPC.importFile, { format: 'csv', kind: 'venues', dryRun: true }],
      [IPC.importFile, {}],
      [IPC.exportFile, 'ics', { language: 'es' }],
      [IPC.openDataFolder],
    ]);
  });

  it('delivers menu commands without the IPC event, and tells the main process who listens', () => {
    const { exposed, ipcRenderer } = runPreload();
    const bridge = exposed[0].api as DesktopBridge;
    const got: unknown[][] = [];
    const off = bridge.onCommand((...args: unknown[]) => void got.push(args));
    expect(ipcRenderer.sentToMain).toEqual([[IPC.commandListeners, 1]]);
    const cmd: DesktopCommand = { name: 'show-view', view: 'agenda' };
    ipcRenderer.emit(IPC.command, { sender: ipcRenderer, ports: [] }, cmd);
    expect(got).toEqual([[cmd]]);
    off();
    off();
    ipcRenderer.emit(IPC.command, {}, cmd);
    expect(got).toHaveLength(1);
    expect(ipcRenderer.listenerCount(IPC.command)).toBe(0);
    expect(ipcRenderer.sentToMain).toEqual([
      [IPC.commandListeners, 1],
      [IPC.commandListeners, 0],
    ]);
  });
});
