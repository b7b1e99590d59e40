import { render, screen } from '@testing-library/react';
import { Notice } from './notice.js';

describe('Notice', () => {
  it('an error is an alert, [ERR] for the eye only', () => {
    render(<Notice tone="error">The provider refused.</Notice>);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('[ERR] The provider refused.');
    expect(alert.querySelector('[aria-hidden="true"]')).toHaveTextContent('[ERR]');
    expect(alert).toHaveClass('tp-notice', 'tp-notice--error');
  });

  it('a success is a status with [OK]', () => {
    render(<Notice tone="ok">Linked.</Notice>);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('[OK] Linked.');
    expect(status.querySelector('[aria-hidden="true"]')).toHaveTextContent('[OK]');
    expect(status).toHaveClass('tp-notice--ok');
  });

  it('a note has no role and no prefix: it is part of the screen, not news', () => {
    render(<Notice tone="note">Passwords are off.</Notice>);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    const note = screen.getByText('Passwords are off.');
    expect(note.tagName).toBe('P');
    expect(note).toHaveTextContent(/^Passwords are off\.$/);
    expect(note).toHaveClass('tp-notice', 'tp-notice--note');
  });
});
