/** The event editor opened on an event, with the scope question a series' edit asks. */
import { render } from '@testing-library/react';
import type { Event } from '@shared/api/records';
import { EventEditor } from '../../renderer/src/editor/EventEditor';
import { ScopeDialogHost } from '../../renderer/src/recurrence/ScopeDialog';
import { useUi } from '../../renderer/src/state/ui';

export function openEditor(e: Event): void {
  useUi.setState({ editor: { kind: 'edit', event: e } });
  render(
    <>
      <EventEditor target={{ kind: 'edit', event: e }} />
      <ScopeDialogHost />
    </>,
  );
}
