/**
 * Runs sandboxed in the renderer's isolated world before the page, and hands the page
 * `window.almanac` (the DesktopBridge): the API base URL and token, the app version, the native
 * dialog calls and the menu commands. Nothing else of Electron or Node reaches the page.
 *
 * The values come from the main process synchronously, so they are there before the page's own
 * scripts run; the main process answers only for the app's own origin.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_NAME, IPC, type BridgeConfig, type DesktopBridge, type DesktopCommand, type ExportFormat, type ExportOptions, type ImportOptions } from '@shared/desktop-bridge';

const config = ipcRenderer.sendSync(IPC.config) as BridgeConfig | null;

if (config) {
  let listeners = 0;
  const bridge: DesktopBridge = {
    apiBase: config.apiBase,
    token: config.token,
    version: config.version,
    importFile: (options?: ImportOptions) => ipcRenderer.invoke(IPC.importFile, options ?? {}),
    exportFile: (format: ExportFormat, options?: ExportOptions) => ipcRenderer.invoke(IPC.exportFile, format, options ?? {}),
    openDataFolder: () => ipcRenderer.invoke(IPC.openDataFolder),
    authorizeSite: (address: string) => ipcRenderer.invoke(IPC.authorizeSite, address),
    onCommand(listener: (command: DesktopCommand) => void) {
      // The page gets the command only, never the IPC event (it would reach ipcRenderer through it).
      const relay = (_event: unknown, command: DesktopCommand) => listener(command);
      ipcRenderer.on(IPC.command, relay);
      ipcRenderer.send(IPC.commandListeners, ++listeners);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipcRenderer.removeListener(IPC.command, relay);
        ipcRenderer.send(IPC.commandListeners, --listeners);
      };
    },
  };
  contextBridge.exposeInMainWorld(BRIDGE_NAME, bridge);
}
