/**
 * The Electron main process: hands the real Electron modules to the desktop app's lifecycle
 * (electron/main/lifecycle.ts), where all the logic lives and is tested under Node with a fake.
 */
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, Notification, safeStorage, screen, session, shell, Tray } from 'electron';
import { createServer } from './server';
import { startDesktopApp } from './main/lifecycle';
import { locateElectronAddon } from './main/native-sqlite';
import { trayIconPng } from './main/tray-icon';

startDesktopApp<BrowserWindow>({
  app,
  createWindow: (options) => new BrowserWindow(options),
  screen: () => screen,
  session: () => session.defaultSession,
  Menu,
  ipcMain,
  dialog,
  shell,
  clipboard,
  safeStorage,
  createServer,
  argv: process.argv,
  env: process.env,
  cwd: process.cwd(),
  platform: process.platform,
  nativeBinding: () =>
    locateElectronAddon(
      { isPackaged: app.isPackaged, appPath: app.getAppPath(), resourcesPath: process.resourcesPath },
      { electron: process.versions.electron, platform: process.platform, arch: process.arch },
    ),
  onSignal: (signal, handler) => process.on(signal, handler),
  Notification,
  createTray: () => new Tray(nativeImage.createFromBuffer(trayIconPng(32))),
  locale: () => app.getLocale(),
});
