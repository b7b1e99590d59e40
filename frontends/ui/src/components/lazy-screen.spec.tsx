import { act, render, screen } from '@testing-library/react';
import { lazyScreen } from './lazy-screen.js';

describe('lazyScreen', () => {
  it('shows the screen skeleton until the screen’s code is there, then the screen', async () => {
    let resolve!: (screen: () => React.JSX.Element) => void;
    const load = jest.fn(() => new Promise<() => React.JSX.Element>((done) => (resolve = done)));
    const Screen = lazyScreen(load);
    expect(load).not.toHaveBeenCalled();

    render(<Screen />);
    expect(screen.getByLabelText('Loading')).toHaveAttribute('aria-busy', 'true');
    expect(load).toHaveBeenCalledTimes(1);

    await act(async () => resolve(() => <h1>Thread</h1>));
    expect(screen.getByRole('heading', { name: 'Thread' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument();
  });

  it('fetches the code once, however often the screen is shown', async () => {
    const load = jest.fn(() => Promise.resolve(() => <p>Users</p>));
    const Screen = lazyScreen(load);
    const { unmount } = render(<Screen />);
    expect(await screen.findByText('Users')).toBeInTheDocument();
    unmount();
    render(<Screen />);
    expect(screen.getByText('Users')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
