import { landingPageHtml, notFoundPageHtml, PAINT_ID } from '@termpaste/contracts/first-paint';
import { CONTENT_ID } from '@termpaste/ui';
import { act, render } from '@testing-library/react';
import { Link, MemoryRouter } from 'react-router-dom';
import { usePaintRelease } from './paint';
import { LandingPage } from './pages/landing';
import { VisitorNotFound } from './pages/not-found';

describe('the server-painted landing page', () => {
  afterEach(() => document.getElementById(PAINT_ID)?.remove());

  it('is the markup LandingPage renders first, so the takeover changes nothing on screen', () => {
    const painted = document.createElement('div');
    painted.innerHTML = landingPageHtml(CONTENT_ID);
    // Mounted before the app: the page removes it as it commits.
    const { container } = render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    expect(container.innerHTML).toBe(painted.innerHTML);
  });

  it('removes the painted copy when the app page mounts', () => {
    const paint = document.createElement('div');
    paint.id = PAINT_ID;
    document.body.append(paint);
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    expect(document.getElementById(PAINT_ID)).toBeNull();
  });
});

describe('the server-painted 404 page of a visitor', () => {
  afterEach(() => document.getElementById(PAINT_ID)?.remove());

  it('is the markup the visitor 404 route renders, so the takeover changes nothing on screen', () => {
    const painted = document.createElement('div');
    painted.innerHTML = notFoundPageHtml(CONTENT_ID);
    const paint = document.createElement('div');
    paint.id = PAINT_ID;
    document.body.append(paint);
    const { container } = render(
      <MemoryRouter>
        <VisitorNotFound />
      </MemoryRouter>,
    );
    expect(container.innerHTML).toBe(painted.innerHTML);
    expect(document.getElementById(PAINT_ID)).toBeNull();
  });
});

describe("a member's painted screen", () => {
  afterEach(() => document.getElementById(PAINT_ID)?.remove());

  function Released() {
    usePaintRelease();
    return <Link to="/elsewhere">elsewhere</Link>;
  }

  it('goes when the reader moves elsewhere before its screen took it over', async () => {
    const paint = document.createElement('div');
    paint.id = PAINT_ID;
    document.body.append(paint);
    const { getByText } = render(
      <MemoryRouter>
        <Released />
      </MemoryRouter>,
    );
    // Its own screen (not here) would take it over; on the first page it stays until then.
    expect(document.getElementById(PAINT_ID)).not.toBeNull();
    await act(async () => getByText('elsewhere').click());
    expect(document.getElementById(PAINT_ID)).toBeNull();
  });
});
