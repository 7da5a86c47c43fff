/** Every keyboard shortcut in one list, opened with `?` (and from the desktop app's Help menu). */
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { useUi } from '../state/ui';

/** Keys as shown, and the i18n key of what each does; keyboard.ts is the code behind them. */
export const SHORTCUTS: Array<{ keys: string[]; does: string }> = [
  { keys: ['C'], does: 'shortcuts.new' },
  { keys: ['Q'], does: 'shortcuts.quick_add' },
  { keys: ['T'], does: 'shortcuts.today' },
  { keys: ['J', 'N'], does: 'shortcuts.next' },
  { keys: ['K', 'P'], does: 'shortcuts.previous' },
  { keys: ['Y'], does: 'shortcuts.year' },
  { keys: ['M'], does: 'shortcuts.month' },
  { keys: ['W'], does: 'shortcuts.week' },
  { keys: ['D'], does: 'shortcuts.day' },
  { keys: ['A'], does: 'shortcuts.agenda' },
  { keys: ['/'], does: 'shortcuts.search' },
  { keys: ['Enter'], does: 'shortcuts.open' },
  { keys: ['Delete'], does: 'shortcuts.delete' },
  { keys: ['Ctrl/⌘', 'Z'], does: 'shortcuts.undo' },
  { keys: ['Ctrl/⌘', 'Enter'], does: 'shortcuts.save' },
  { keys: ['Ctrl/⌘', 'E'], does: 'shortcuts.export' },
  { keys: ['Esc'], does: 'shortcuts.close' },
  { keys: ['?'], does: 'shortcuts.help' },
];

export function ShortcutsDialog() {
  const { t } = useTranslation();
  const close = useUi((s) => s.closeShortcuts);
  return (
    <Dialog title={t('shortcuts.title')} onRequestClose={close} closeLabel={t('action.close')} className="shortcuts-dialog">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.does}>
              <th scope="row">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && (s.keys.length === 2 && s.keys.every((x) => x.length === 1) ? ` ${t('shortcuts.or')} ` : ' + ')}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{t(s.does)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <footer className="dialog-footer">
        <span className="spacer" />
        <button type="button" className="button button-primary" data-autofocus onClick={close}>
          {t('action.close')}
        </button>
      </footer>
    </Dialog>
  );
}
