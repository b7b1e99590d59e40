import { render, screen } from '@testing-library/react';
import { DateEntry } from './date-entry';

describe('DateEntry', () => {
  it('shows the term and the short form, with the full local time on hover', () => {
    const at = '2026-03-04T05:06:07.000Z';
    render(
      <dl>
        <DateEntry term="Created" at={at}>
          Mar 4
        </DateEntry>
      </dl>,
    );
    expect(screen.getByRole('term')).toHaveTextContent('Created');
    const value = screen.getByRole('definition');
    expect(value).toHaveTextContent('Mar 4');
    expect(value).toHaveAttribute('title', new Date(at).toLocaleString());
  });

  it('has no hover text without a date', () => {
    render(
      <dl>
        <DateEntry term="Last used" at={null}>
          never
        </DateEntry>
      </dl>,
    );
    expect(screen.getByRole('definition')).not.toHaveAttribute('title');
  });
});
