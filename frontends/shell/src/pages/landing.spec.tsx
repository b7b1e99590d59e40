import { TEXTS } from '@termpaste/contracts';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LandingPage } from './landing';

describe('landing page', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('types the tagline at 100 ms a character', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    const tagline = screen.getByTestId('tagline');
    expect(tagline).toHaveTextContent('');
    act(() => {
      jest.advanceTimersByTime(100);
    });
    expect(tagline.textContent).toBe(TEXTS.landingTagline.slice(0, 1));
    for (let i = 0; i < 4; i++) {
      act(() => {
        jest.advanceTimersByTime(100);
      });
    }
    expect(tagline.textContent).toBe(TEXTS.landingTagline.slice(0, 5));
    for (let i = 0; i < TEXTS.landingTagline.length; i++) {
      act(() => {
        jest.advanceTimersByTime(100);
      });
    }
    expect(tagline.textContent).toBe(TEXTS.landingTagline);
  });

  it('has exactly one button, to /login', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    const links = screen.getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/login');
  });

  it('is headed by the site name (h1) for a screen reader, the drawn logos hidden from it', () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Termpaste$/);
    expect(screen.getAllByRole('heading')).toHaveLength(1);
  });
});
