/**
 * The marks after an event's title in the lists (the "+N more" day list, search results): a
 * repeating event's and one with reminders, each with words for screen readers.
 */
import { useTranslation } from 'react-i18next';
import type { Event } from '@shared/api/records';
import { Icon } from '../components/Icon';

export function EventMarks({ event }: { event: Event }) {
  const { t } = useTranslation();
  return (
    <>
      {event.recurrence && (
        <span className="ev-badge ev-badge-repeat">
          <Icon name="repeat" size={12} />
          <span className="visually-hidden"> {t('repeat.mark')}</span>
        </span>
      )}
      {event.reminders?.length ? (
        <span className="ev-badge ev-badge-bell">
          <Icon name="bell" size={12} />
          <span className="visually-hidden"> {t('notify.mark')}</span>
        </span>
      ) : null}
    </>
  );
}
