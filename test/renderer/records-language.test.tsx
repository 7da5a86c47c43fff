// @vitest-environment happy-dom
/**
 * Issue 27 §5.17: "Records language" emptied the calendar when switched and nothing said why;
 * where it is chosen, it says in the reader's language what it does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18n from '../../renderer/src/i18n';
import type { Language } from '@shared/i18n/languages';
import { LanguageSettings } from '../../renderer/src/sidebar/Sidebar';
import { useSettings } from '../../renderer/src/state/settings';

afterEach(cleanup);

describe('the records language, where it is chosen', () => {
  it.each([
    ['en', 'Records language', 'shows the events of the language chosen here'],
    ['pt-br', 'Idioma dos registros', 'mostra os eventos do idioma escolhido aqui'],
    ['es', 'Idioma de los registros', 'muestra los eventos del idioma elegido aquí'],
  ] as const)('%s: explained under the choice', async (language: Language, label, words) => {
    useSettings.setState({ uiLanguage: language, contentLanguage: language });
    await i18n.changeLanguage(language);
    render(<LanguageSettings />);
    const select = screen.getByRole('combobox', { name: label });
    const hint = document.getElementById(select.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain(words);
  });
});
