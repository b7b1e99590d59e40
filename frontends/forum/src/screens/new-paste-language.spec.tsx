import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, stubFetch } from '../testing';
import { NewPasteScreen } from './new-paste';

function renderNewPaste() {
  const { user } = renderScreen(<NewPasteScreen />, { path: '/thread/new' });
  return {
    user,
    picker: () => screen.getByRole('combobox', { name: 'Language' }),
    options: () => within(screen.getByRole('listbox', { name: 'Language' })).getAllByRole('option'),
    submit: () => screen.getByRole('button', { name: /ADD PASTE|SUBMITTING/ }),
  };
}

function postsTo() {
  return stubFetch((call) =>
    call.method === 'POST' ? { status: 201, body: { id: 42 } } : { body: sampleCurrentUser() },
  );
}

describe('the language picker on /thread/new', () => {
  it('is a labelled combobox showing Markdown, the default; POST sends no language then', async () => {
    const calls = postsTo();
    const { user, picker, submit } = renderNewPaste();
    expect(picker()).toHaveValue('Markdown');
    expect(picker()).toHaveAttribute('aria-expanded', 'false');
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 't');
    await user.type(screen.getByRole('textbox', { name: 'Content' }), 'c');
    await user.click(submit());
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ title: 't', content: 'c' });
  });

  it('filters by name, alias or title as the member types; keyboard picks; POST sends the language', async () => {
    const calls = postsTo();
    const { user, picker, options, submit } = renderNewPaste();
    await user.click(picker());
    expect(picker()).toHaveAttribute('aria-expanded', 'true');
    expect(options()[0]).toHaveTextContent('Markdown');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    expect(options()[1]).toHaveTextContent('ANSI (terminal output)');

    await user.clear(picker());
    await user.type(picker(), 'py');
    expect(options()[0]).toHaveTextContent('Python');
    expect(picker()).toHaveAttribute('aria-activedescendant', options()[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(picker()).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    await user.keyboard('{ArrowUp}{Enter}');
    expect(picker()).toHaveValue('Python');
    expect(picker()).toHaveAttribute('aria-expanded', 'false');

    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'hello.py');
    await user.type(screen.getByRole('textbox', { name: 'Content' }), 'print(1)');
    await user.click(submit());
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      title: 'hello.py',
      content: 'print(1)',
      language: 'python',
    });
  });

  it('Escape closes the list and keeps the language; a click on an option picks it', async () => {
    const { user, picker, options } = renderNewPaste();
    await user.click(picker());
    await user.keyboard('{Escape}');
    expect(picker()).toHaveAttribute('aria-expanded', 'false');
    expect(picker()).toHaveValue('Markdown');
    await user.click(picker());
    await user.clear(picker());
    await user.type(picker(), 'bash');
    await user.click(options()[0]!);
    expect(picker()).toHaveValue('Bash');
  });

  it('says when nothing matches', async () => {
    const { user, picker } = renderNewPaste();
    await user.click(picker());
    await user.clear(picker());
    await user.type(picker(), 'zzzz');
    expect(screen.getByText('No language matches.')).toBeInTheDocument();
    await user.keyboard('{Enter}');
    expect(picker()).toHaveAttribute('aria-expanded', 'true');
  });

  it('previews a paste in a language in the code view', async () => {
    const { user, picker } = renderNewPaste();
    await user.click(picker());
    await user.clear(picker());
    await user.type(picker(), 'python{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Content' }), 'import os{Enter}x = 1');
    await user.click(screen.getByRole('button', { name: 'SHOW PREVIEW' }));
    const code = screen.getByRole('region', { name: 'Preview of the paste' });
    expect([...code.querySelectorAll('.cv-num')].map((n) => n.textContent)).toEqual(['1', '2']);
    await waitFor(() => expect(within(code).getByText('import')).toHaveClass('hljs-keyword'));
  });
});
