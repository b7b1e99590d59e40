import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { render, screen } from '@testing-library/react';
import { UserMenuButton } from './user-menu-button';

describe('UserMenuButton', () => {
  it('is named by the username it shows, then what it opens (WCAG 2.5.3)', () => {
    const user = sampleCurrentUser({ username: 'ada_l' });
    render(<UserMenuButton user={user} />);
    const button = screen.getByRole('button', { name: 'ada_l user menu' });
    expect(button).toHaveTextContent('ada_l');
  });
});
