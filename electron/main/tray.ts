/**
 * "Keep running in the tray after the window closes" (issue 16): with the setting on, closing the
 * window leaves the app (and its server, which fires reminders) running behind a tray icon whose
 * menu opens the calendar again or quits; with it off, closing the window quits as before.
 * Electron's `Tray` comes in as a parameter, so tests drive this with a fake.
 */
import type { Language } from '../../shared/i18n/languages';
import type { MenuItemTemplate } from './menu';

export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

const TEXT: Record<Language, { open: string; quit: string; tip: string }> = {
  en: { open: 'Open Almanac', quit: 'Quit Almanac', tip: 'Almanac: reminders keep coming while the window is closed' },
  'pt-br': { open: 'Abrir o Almanac', quit: 'Sair do Almanac', tip: 'Almanac: os lembretes continuam com a janela fechada' },
  es: { open: 'Abrir Almanac', quit: 'Salir de Almanac', tip: 'Almanac: los recordatorios siguen llegando con la ventana cerrada' },
};

export interface TrayOptions {
  createTray(): TrayLike;
  buildMenu(template: MenuItemTemplate[]): unknown;
  /** The setting, read when it matters (the Settings dialog may change it while the app runs). */
  keepRunning(): boolean;
  showWindow(): void;
  quit(): void;
  language(): Language;
  log(line: string): void;
}

export function createTrayKeeper(opts: TrayOptions) {
  let tray: TrayLike | undefined;

  function ensure(): boolean {
    if (tray) return true;
    try {
      const t = opts.createTray();
      const text = TEXT[opts.language()];
      t.setToolTip(text.tip);
      t.setContextMenu(
        opts.buildMenu([
          { id: 'tray-open', label: text.open, click: () => opts.showWindow() },
          { type: 'separator' },
          { id: 'tray-quit', label: text.quit, click: () => opts.quit() },
        ]),
      );
      // Windows and most Linux panels: a click on the icon opens the calendar.
      t.on('click', () => opts.showWindow());
      tray = t;
      return true;
    } catch (err) {
      // A desktop without a tray: better to quit than to keep running with no way back in.
      opts.log(`no tray icon could be made (${(err as Error).message}); closing the window quits`);
      return false;
    }
  }

  function destroy(): void {
    tray?.destroy();
    tray = undefined;
  }

  return {
    /** The icon now if the setting is on (at start), none if it is off. */
    sync(): void {
      if (opts.keepRunning()) ensure();
      else destroy();
    },
    /** The last window closed: true when the app keeps running in the tray, false when it should quit. */
    windowClosed(): boolean {
      if (!opts.keepRunning()) {
        destroy();
        return false;
      }
      return ensure();
    },
    get shown(): boolean {
      return tray !== undefined;
    },
    destroy,
  };
}
