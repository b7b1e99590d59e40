import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef } from 'react';
import { Button, IconButton } from './button.js';
import { TooltipProvider } from './tooltip.js';

describe('Button', () => {
  it('is a type="button" with its variant and size classes, merging className', () => {
    render(
      <Button variant="danger" size="sm" className="extra">
        DELETE
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'DELETE' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('tp-button', 'tp-button--danger', 'tp-button--sm', 'extra');
  });

  it('defaults to primary, md', () => {
    render(<Button>GO</Button>);
    expect(screen.getByRole('button')).toHaveClass('tp-button--primary', 'tp-button--md');
  });

  it('keeps an explicit type', () => {
    render(<Button type="submit">SEND</Button>);
    expect(screen.getByRole('button')).toHaveAttribute('type', 'submit');
  });

  it('does not click when disabled', async () => {
    const onClick = jest.fn();
    render(
      <Button disabled onClick={onClick}>
        GO
      </Button>,
    );
    await userEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button')).toBeDisabled();
    expect(onClick).not.toHaveBeenCalled();
  });

  it('is disabled and busy while loading, keeping its label', async () => {
    const onClick = jest.fn();
    render(
      <Button loading onClick={onClick}>
        SUBMITTING...
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'SUBMITTING...' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('passes ref as a prop (React 19)', () => {
    const ref = createRef<HTMLButtonElement>();
    render(<Button ref={ref}>GO</Button>);
    expect(ref.current).toBe(screen.getByRole('button'));
  });
});

describe('IconButton', () => {
  it('is named by its label and shows the icon only', async () => {
    const onClick = jest.fn();
    render(
      <TooltipProvider>
        <IconButton label="Notifications" icon={<svg data-testid="bell" />} onClick={onClick} />
      </TooltipProvider>,
    );
    const button = screen.getByRole('button', { name: 'Notifications' });
    expect(button).toHaveAttribute('aria-label', 'Notifications');
    expect(button).toHaveClass('tp-icon-button', 'tp-button--ghost');
    expect(screen.getByTestId('bell')).toBeInTheDocument();
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('shows its label as a tooltip on keyboard focus', async () => {
    render(
      <TooltipProvider>
        <IconButton label="Messages" icon={<svg />} />
      </TooltipProvider>,
    );
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Messages');
  });
});
