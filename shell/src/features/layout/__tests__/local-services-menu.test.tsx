import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { LocalServicesMenu } from '../components/local-services-menu';

describe('LocalServicesMenu', () => {
  it('opens on click and closes once a town page is open', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/']}>
        <LocalServicesMenu />
      </MemoryRouter>,
    );
    const trigger = screen.getByRole('button', { name: 'Local Services' });
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('link', { name: 'Danville' }));
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Danville' })).toBeNull();
    // Opening again works on the new page.
    await user.click(trigger);
    expect(screen.getByRole('link', { name: 'Danville' })).toBeTruthy();
  });
});
