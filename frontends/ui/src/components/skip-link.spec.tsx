import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SkipLink } from './skip-link.js';

describe('SkipLink', () => {
  const renderPage = () =>
    render(
      <>
        <SkipLink />
        <nav>
          <a href="/">Home</a>
        </nav>
        <main id="content">
          <a href="/paste">A paste</a>
        </main>
      </>,
    );

  it('is the first thing Tab reaches', async () => {
    renderPage();
    await userEvent.setup().tab();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveFocus();
  });

  it('moves the focus to the main content, from where Tab goes on, and leaves the address alone', async () => {
    renderPage();
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(main).toHaveAttribute('tabindex', '-1');
    expect(window.location.hash).toBe('');
    await user.tab();
    expect(screen.getByRole('link', { name: 'A paste' })).toHaveFocus();
  });

  it('points at #content for a page without scripts', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#content');
  });
});
