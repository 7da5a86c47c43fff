import { describe, expect, it } from 'vitest';
import { findMenuItem, menuTemplate, type MenuItemTemplate } from '../../electron/main/menu';
import type { DesktopCommand } from '../../shared/desktop-bridge';

function build(platform: NodeJS.Platform = 'linux', devTools = false) {
  const commands: DesktopCommand[] = [];
  const calls: string[] = [];
  const template = menuTemplate({
    platform,
    appName: 'Almanac',
    devTools,
    actions: { command: (c) => commands.push(c), openDataFolder: () => calls.push('open-data-folder'), showApiAccess: () => calls.push('api-access') },
  });
  return { template, commands, calls };
}

const item = (t: MenuItemTemplate[], id: string) => {
  const found = findMenuItem(t, id);
  if (!found) throw new Error(`no menu item ${id}`);
  return found;
};

function roles(items: MenuItemTemplate[]): string[] {
  return items.flatMap((i) => [...(i.role ? [i.role] : []), ...(i.submenu ? roles(i.submenu) : [])]);
}

describe('application menu', () => {
  it('has File, Edit, View, Window and Help, with the standard Edit and Window menus', () => {
    const { template } = build();
    expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    expect(template[1].role).toBe('editMenu');
    expect(template[3].role).toBe('windowMenu');
    expect(roles(template)).toEqual(expect.arrayContaining(['quit', 'reload', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen', 'about']));
    expect(roles(template)).not.toContain('toggleDevTools');
    expect(roles(build('linux', true).template)).toContain('toggleDevTools');
  });

  it('imports iCalendar, CSV (events, venues, organizers) and JSON backups, and exports iCalendar and backups', () => {
    const { template, commands } = build();
    const ids = ['import-ics', 'import-csv-events', 'import-csv-venues', 'import-csv-organizers', 'import-json', 'export-ics', 'export-json'];
    for (const id of ids) item(template, id).click!();
    expect(commands).toEqual([
      { name: 'import', format: 'ics', kind: 'events' },
      { name: 'import', format: 'csv', kind: 'events' },
      { name: 'import', format: 'csv', kind: 'venues' },
      { name: 'import', format: 'csv', kind: 'organizers' },
      { name: 'import', format: 'json', kind: 'events' },
      { name: 'export', format: 'ics' },
      { name: 'export', format: 'json' },
    ]);
    expect(item(template, 'import-ics').accelerator).toBe('CmdOrCtrl+O');
    expect(item(template, 'export-ics').accelerator).toBe('CmdOrCtrl+E');
    expect(item(template, 'export-json').accelerator).toBe('CmdOrCtrl+Shift+E');
    // Items that open a dialog say so.
    for (const id of ids) expect(item(template, id).label).toMatch(/…$/);
  });

  it('lists the keyboard shortcuts from the Help menu (shown by the page, where ? opens them too)', () => {
    const { template, commands } = build();
    item(template, 'shortcuts').click!();
    expect(commands).toEqual([{ name: 'show-shortcuts' }]);
    expect(item(template, 'shortcuts').label).toBe('&Keyboard Shortcuts');
  });

  it('switches between the month, week, day and agenda views with Ctrl/Cmd+1–4', () => {
    const { template, commands } = build();
    const views = ['month', 'week', 'day', 'agenda'] as const;
    views.forEach((v, i) => {
      const it = item(template, `view-${v}`);
      expect(it.accelerator).toBe(`CmdOrCtrl+${i + 1}`);
      it.click!();
    });
    expect(commands).toEqual(views.map((view) => ({ name: 'show-view', view })));
  });

  it('opens the data folder, and shows the API address and token for scripts', () => {
    const { template, calls } = build();
    item(template, 'open-data-folder').click!();
    item(template, 'api-access').click!();
    expect(calls).toEqual(['open-data-folder', 'api-access']);
    expect(template[4].submenu![0].label).toMatch(/API.*Token/);
  });

  it('follows macOS conventions there: an app menu, Close instead of Exit, no access keys', () => {
    const { template } = build('darwin');
    expect(template[0]).toMatchObject({ role: 'appMenu', label: 'Almanac' });
    expect(template.map((m) => m.label)).toEqual(['Almanac', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(roles(template[1].submenu!)).toContain('close');
    expect(roles(template[1].submenu!)).not.toContain('quit');
    expect(JSON.stringify(template)).not.toContain('&');
    expect(item(template, 'import-ics').label).toBe('Events from iCalendar (.ics)…');
  });
});
