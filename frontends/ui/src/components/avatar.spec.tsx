import { fireEvent, render, screen } from '@testing-library/react';
import { Avatar } from './avatar.js';

describe('Avatar (fallback order)', () => {
  const user = {
    avatarUrl: 'https://cdn.test/avatar.png',
    profileImageUrl: 'https://cdn.test/profile.png',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@analytical.engine',
  };

  it('shows avatarUrl first', () => {
    render(<Avatar user={user} />);
    expect(screen.getByRole('img', { name: 'Ada Lovelace' })).toHaveAttribute('src', user.avatarUrl);
  });

  it('shows profileImageUrl without an avatarUrl', () => {
    render(<Avatar user={{ ...user, avatarUrl: null }} />);
    expect(screen.getByRole('img')).toHaveAttribute('src', user.profileImageUrl);
  });

  it('shows initials without any image', () => {
    render(<Avatar user={{ ...user, avatarUrl: '', profileImageUrl: null }} />);
    const avatar = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(avatar.tagName).toBe('SPAN');
    expect(avatar).toHaveTextContent('AL');
  });

  it('falls back to the next source when an image fails to load', () => {
    render(<Avatar user={user} />);
    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByRole('img')).toHaveAttribute('src', user.profileImageUrl);
    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByRole('img')).toHaveTextContent('AL');
  });

  it('shows ? for no user, and takes size and alt', () => {
    render(<Avatar user={null} size={48} alt="nobody" />);
    const avatar = screen.getByRole('img', { name: 'nobody' });
    expect(avatar).toHaveTextContent('?');
    expect(avatar.style.getPropertyValue('--tp-avatar-size')).toBe('48px');
  });

  it('names an e-mail-only user by the e-mail', () => {
    render(<Avatar user={{ email: 'neo@matrix.io' }} />);
    expect(screen.getByRole('img', { name: 'neo@matrix.io' })).toHaveTextContent('N');
  });

  it('hides decorative initials (alt="") from assistive technology instead of an unnamed image', () => {
    const { container } = render(
      <Avatar user={{ ...user, avatarUrl: null, profileImageUrl: null }} alt="" />,
    );
    expect(screen.queryByRole('img')).toBeNull();
    const avatar = container.querySelector('.tp-avatar')!;
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
    expect(avatar).not.toHaveAttribute('aria-label');
    expect(avatar).toHaveTextContent('AL');
  });

  it('draws its initials with CSS, not as text, when asked (inside a control named by the text beside it)', () => {
    const { container } = render(
      <Avatar user={{ ...user, avatarUrl: null, profileImageUrl: null }} alt="" drawnInitials />,
    );
    expect(container.querySelector('.tp-avatar')).toHaveTextContent('');
    expect(container.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'AL');
  });
});
