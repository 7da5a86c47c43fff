/**
 * The application menu. Items the calendar UI carries out (switching the view, import and export
 * with their options) are sent to it as commands; the rest the main process does itself.
 */
import type { DesktopCommand } from '../../shared/desktop-bridge';

export type MenuRole =
  | 'appMenu'
  | 'editMenu'
  | 'windowMenu'
  | 'help'
  | 'about'
  | 'quit'
  | 'close'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen';

/** The part of Electron's MenuItemConstructorOptions the menu uses. */
export interface MenuItemTemplate {
  id?: string;
  label?: string;
  role?: MenuRole;
  type?: 'normal' | 'separator' | 'submenu';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItemTemplate[];
}

export interface MenuActions {
  /** A command for the calendar UI. */
  command(command: DesktopCommand): void;
  openDataFolder(): void;
  showApiAccess(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Developer tools are offered in a checkout, not in the installed app. */
  devTools: boolean;
  actions: MenuActions;
}

const separator: MenuItemTemplate = { type: 'separator' };

export function menuTemplate({ platform, appName, devTools, actions }: MenuOptions): MenuItemTemplate[] {
  const mac = platform === 'darwin';
  const command = (c: DesktopCommand) => () => actions.command(c);

  const file: MenuItemTemplate = {
    label: '&File',
    submenu: [
      {
        id: 'import',
        label: '&Import',
        submenu: [
          { id: 'import-ics', label: 'Events from &iCalendar (.ics)…', accelerator: 'CmdOrCtrl+O', click: command({ name: 'import', format: 'ics', kind: 'events' }) },
          { id: 'import-csv-events', label: 'Events from &CSV…', click: command({ name: 'import', format: 'csv', kind: 'events' }) },
          { id: 'import-csv-venues', label: '&Venues from CSV…', click: command({ name: 'import', format: 'csv', kind: 'venues' }) },
          { id: 'import-csv-organizers', label: '&Organizers from CSV…', click: command({ name: 'import', format: 'csv', kind: 'organizers' }) },
          separator,
          { id: 'import-json', label: '&Restore a JSON Backup…', click: command({ name: 'import', format: 'json', kind: 'events' }) },
        ],
      },
      {
        id: 'export',
        label: '&Export',
        submenu: [
          { id: 'export-ics', label: 'Events as &iCalendar (.ics)…', accelerator: 'CmdOrCtrl+E', click: command({ name: 'export', format: 'ics' }) },
          { id: 'export-json', label: '&JSON Backup of Everything…', accelerator: 'CmdOrCtrl+Shift+E', click: command({ name: 'export', format: 'json' }) },
        ],
      },
      separator,
      { id: 'open-data-folder', label: 'Open &Data Folder', click: () => actions.openDataFolder() },
      separator,
      mac ? { role: 'close' } : { role: 'quit', label: 'E&xit' },
    ],
  };

  const view: MenuItemTemplate = {
    label: '&View',
    submenu: [
      { id: 'view-month', label: '&Month', accelerator: 'CmdOrCtrl+1', click: command({ name: 'show-view', view: 'month' }) },
      { id: 'view-week', label: '&Week', accelerator: 'CmdOrCtrl+2', click: command({ name: 'show-view', view: 'week' }) },
      { id: 'view-day', label: '&Day', accelerator: 'CmdOrCtrl+3', click: command({ name: 'show-view', view: 'day' }) },
      { id: 'view-agenda', label: '&Agenda', accelerator: 'CmdOrCtrl+4', click: command({ name: 'show-view', view: 'agenda' }) },
      separator,
      { role: 'reload' },
      { role: 'forceReload' },
      ...(devTools ? [{ role: 'toggleDevTools' } as MenuItemTemplate] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };

  const help: MenuItemTemplate = {
    role: 'help',
    label: '&Help',
    submenu: [
      { id: 'api-access', label: 'API &Address and Token (for Scripts)…', click: () => actions.showApiAccess() },
      { id: 'shortcuts', label: '&Keyboard Shortcuts', click: command({ name: 'show-shortcuts' }) },
      ...(mac ? [] : [separator, { role: 'about', label: `&About ${appName}` } as MenuItemTemplate]),
    ],
  };

  const template: MenuItemTemplate[] = [
    ...(mac ? [{ role: 'appMenu', label: appName } as MenuItemTemplate] : []),
    file,
    { role: 'editMenu', label: '&Edit' },
    view,
    { role: 'windowMenu', label: '&Window' },
    help,
  ];
  return mac ? withoutMnemonics(template) : template;
}

/** `&` marks the access key on Windows and Linux; macOS menus have none. */
function withoutMnemonics(items: MenuItemTemplate[]): MenuItemTemplate[] {
  return items.map((item) => ({
    ...item,
    ...(item.label !== undefined ? { label: item.label.replace(/&(&?)/g, '$1') } : {}),
    ...(item.submenu ? { submenu: withoutMnemonics(item.submenu) } : {}),
  }));
}

/** Finds a menu item by id, anywhere in the template (tests and the main process use it). */
export function findMenuItem(template: readonly MenuItemTemplate[], id: string): MenuItemTemplate | undefined {
  for (const item of template) {
    if (item.id === id) return item;
    const inner = item.submenu ? findMenuItem(item.submenu, id) : undefined;
    if (inner) return inner;
  }
  return undefined;
}
