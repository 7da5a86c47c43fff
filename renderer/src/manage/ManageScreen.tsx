/** List with search, create, edit and delete for venues, organizers, categories or tags. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Term } from '@shared/api/records';
import { ApiError } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Icon } from '../components/Icon';
import { categoryTree } from '../sidebar/Filters';
import { api } from '../state/api';
import { useLookups } from '../state/lookups';
import { useSettings } from '../state/settings';
import { toastError, toastInfo } from '../state/toasts';
import { useUndo } from '../state/undo';
import { undoLast } from '../state/eventActions';
import { reloadEvents } from '../state/events';
import { useUi } from '../state/ui';
import { useNewestOnly } from '../lib/newestOnly';
import { CONFIGS, nameOf, type ManagedKind, type ManagedRecord } from './configs';
import { RecordDialog } from './RecordDialog';

export function ManageScreen({ kind }: { kind: ManagedKind }) {
  const { t } = useTranslation();
  const cfg = CONFIGS[kind];
  const language = useSettings((s) => s.contentLanguage);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<ManagedRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<ManagedRecord | 'new' | null>(null);
  const [confirming, setConfirming] = useState<ManagedRecord | null>(null);
  const [reloading, setReloading] = useState(false);
  /** Rows whose delete is on its way: a second press must not send a second DELETE (it would be refused as already in the trash). */
  const deleting = useRef(new Set<number>());
  const [, setDeletingShown] = useState(0);

  useEffect(() => {
    const h = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(h);
  }, [search]);

  const begin = useNewestOnly();
  const load = useCallback(async () => {
    const isNewest = begin();
    setReloading(true);
    try {
      const c = api();
      const list =
        kind === 'venues' ? await c.listVenues(query) : kind === 'organizers' ? await c.listOrganizers(query) : await c.listTerms(kind, query);
      if (!isNewest()) return;
      const sorted = [...list].sort((a, b) => nameOf(cfg, a).localeCompare(nameOf(cfg, b), undefined, { sensitivity: 'base' }));
      setItems(kind === 'categories' && !query ? (categoryTree(sorted as Term[]) as ManagedRecord[]) : sorted);
      setError(null);
    } catch (e) {
      if (!isNewest()) return;
      setError((e as Error).message);
      setItems([]);
    } finally {
      if (isNewest()) setReloading(false);
    }
  }, [kind, query, cfg, language, begin]); // eslint-disable-line react-hooks/exhaustive-deps

  // The rows on screen stay while a new search or a refresh loads: blanking the table would swap
  // every button under the pointer, and a press and release split across the swap is a lost click.
  useEffect(() => {
    void load();
  }, [load]);

  // A permalink asked for one record of this screen.
  const openRequest = useUi((s) => s.openRequest);
  useEffect(() => {
    if (!openRequest || !cfg.trashable) return;
    useUi.getState().requestOpen(null);
    api()
      .get<ManagedRecord>(`${kind}/by-slug/${encodeURIComponent(openRequest)}`)
      .then(setEditing)
      .catch((e: Error) => toastError(e.message));
  }, [openRequest, kind, cfg.trashable]);

  const changed = () => {
    void load();
    void useLookups.getState().reload(kind).catch(() => {});
    // Events embed these records: the calendar's copies are now stale.
    void reloadEvents();
  };

  async function remove(r: ManagedRecord) {
    const name = nameOf(cfg, r);
    if (deleting.current.has(r.id)) return;
    deleting.current.add(r.id);
    setDeletingShown((n) => n + 1);
    try {
      if (cfg.trashable) {
        await api().trash(kind as 'venues' | 'organizers', r.id);
        useUndo.getState().push({
          label: t('undo.trash', { title: name }),
          undo: async () => {
            await api().restore(kind as 'venues' | 'organizers', r.id);
            changed();
          },
        });
        toastInfo(t('toast.trashed', { title: name }), { label: t('action.undo'), run: () => void undoLast() });
      } else {
        await api().deleteTerm(kind as 'categories' | 'tags', r.id);
        toastInfo(t('toast.deleted', { title: name }));
      }
      // Gone from the list at once; the reload below confirms it.
      setItems((list) => list && list.filter((x) => x.id !== r.id));
      changed();
    } catch (e) {
      toastError((e as Error).message);
      // Gone or already in the trash: another window or a script got there first, and this list is
      // what is out of date. Show it as it is now rather than keep offering the stale row.
      if (e instanceof ApiError && (e.status === 404 || e.status === 410)) changed();
    } finally {
      deleting.current.delete(r.id);
      setDeletingShown((n) => n + 1);
    }
  }

  const depthOf = (r: ManagedRecord) => (r as { depth?: number }).depth ?? 0;

  return (
    <section className="manage" aria-labelledby="manage-heading">
      <header className="manage-header">
        <h2 id="manage-heading" className="screen-title">
          {t(`screen.${kind}`)}
        </h2>
        <div className="search" role="search">
          <Icon name="search" size={16} className="search-icon" />
          <input type="search" aria-label={t(`manage.${kind}.search`)} placeholder={t(`manage.${kind}.search`)} value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          <Icon name="plus" className="plus" />
          {t(`manage.${kind}.new`)}
        </button>
      </header>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      {items === null ? (
        <p className="loading" role="status">
          {t('toolbar.loading')}
        </p>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{query ? t('manage.no_match', { query }) : t(`manage.${kind}.empty`)}</p>
        </div>
      ) : (
        <div className="table-wrap" aria-busy={reloading}>
          <table className="table">
            <caption className="visually-hidden">{t(`screen.${kind}`)}</caption>
            <thead>
              <tr>
                <th scope="col">{t(cfg.fields[cfg.nameField].label)}</th>
                {cfg.columns.map((c) => (
                  <th scope="col" key={c.label}>
                    {t(c.label)}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t('manage.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id}>
                  <th scope="row" style={depthOf(r) ? { paddingInlineStart: `${12 + depthOf(r) * 18}px` } : undefined}>
                    <button type="button" className="link-button row-name" onClick={() => setEditing(r)}>
                      {depthOf(r) > 0 && <span aria-hidden="true">↳ </span>}
                      {nameOf(cfg, r)}
                    </button>
                  </th>
                  {cfg.columns.map((c) => (
                    <td key={c.label} data-label={t(c.label)}>
                      {c.swatch && c.value(r, items) && <span className="ev-dot colour-swatch" style={{ background: c.value(r, items) }} aria-hidden="true" />}
                      {c.value(r, items)}
                    </td>
                  ))}
                  <td className="row-actions">
                    <button type="button" className="button button-small" aria-label={t('action.edit_named', { name: nameOf(cfg, r) })} onClick={() => setEditing(r)}>
                      {t('action.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button-small button-danger-quiet"
                      aria-label={t('action.delete_named', { name: nameOf(cfg, r) })}
                      disabled={deleting.current.has(r.id)}
                      onClick={() => (cfg.trashable ? void remove(r) : setConfirming(r))}
                    >
                      {t('action.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing && (
        <RecordDialog
          cfg={cfg}
          record={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            toastInfo(t('toast.saved', { title: nameOf(cfg, saved) }));
            changed();
          }}
        />
      )}
      {confirming && (
        <ConfirmDialog
          title={t('manage.confirm_delete_title')}
          text={t('manage.confirm_delete', { name: nameOf(cfg, confirming) })}
          confirmLabel={t('action.delete_forever')}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const r = confirming;
            setConfirming(null);
            void remove(r);
          }}
        />
      )}
    </section>
  );
}
