/**
 * The desktop app's menu talks to the page through the bridge: views switch here, imports open the
 * import dialog, and exports run with the records language and the filters on screen, their
 * outcome told in a toast.
 * In a browser tab there is no bridge and nothing happens.
 */
import { useEffect } from 'react';
import type { DesktopCommand } from '@shared/desktop-bridge';
import i18n from './i18n';
import { useCalendar } from './state/calendar';
import { currentExportFilters } from './transfer/exportQuery';
import { useSettings } from './state/settings';
import { toastError, toastInfo } from './state/toasts';
import { useUi } from './state/ui';
import { openEvent } from './reminders/alerts';
import { useSites } from './state/sites';

export async function runCommand(command: DesktopCommand): Promise<void> {
  const bridge = window.almanac;
  if (!bridge) return;
  const language = useSettings.getState().contentLanguage;
  if (command.name === 'show-shortcuts') {
    useUi.getState().openShortcuts();
    return;
  }
  if (command.name === 'show-view') {
    useUi.getState().setScreen('calendar');
    useCalendar.getState().setView(command.view);
    return;
  }
  if (command.name === 'open-event') {
    await openEvent(command.id);
    return;
  }
  if (command.name === 'site-authorized') {
    // The site approved Almanac: "Connect a website" opens with what it sent, for the user to connect.
    useUi.getState().setScreen('calendar');
    useSites.getState().receiveAuthorized({ url: command.url, user: command.user, password: command.password });
    return;
  }
  if (command.name === 'import') {
    // The import dialog, not the bridge's one-shot import: it shows progress, problems and a way to stop.
    useUi.getState().openImport({ format: command.format, kind: command.kind });
    return;
  }
  // An iCalendar export is what the filters show (with every calendar hidden, nothing); a backup
  // is the whole calendar whatever they show, as in the export dialog.
  const filters = command.format === 'ics' ? currentExportFilters() : {};
  if (filters === null) {
    toastInfo(i18n.t('desktop.nothing_to_export'));
    return;
  }
  const r = await bridge.exportFile(command.format, { language, filters });
  if (r.status === 'failed') toastError(r.message);
  if (r.status === 'saved') toastInfo(i18n.t('desktop.exported', { file: r.file }));
}

export function useDesktopCommands() {
  useEffect(() => {
    const bridge = window.almanac;
    if (!bridge?.onCommand) return;
    return bridge.onCommand((command) => {
      runCommand(command).catch((e: Error) => toastError(e.message));
    });
  }, []);
}
