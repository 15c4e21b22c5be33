import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses, useGoToSection, type ButtonSize, type ButtonVariant } from '@site/ui';

/**
 * A real link to `/#section` (works when opened in a new tab) that, when clicked, scrolls there in the app,
 * also from other pages where the shell would not scroll on its own.
 */
export function SectionLink({
  section,
  children,
  variant = 'primary',
  size = 'lg',
  className,
  onNavigate,
}: {
  section: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  onNavigate?: () => void;
}) {
  const goToSection = useGoToSection();
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    onNavigate?.();
    goToSection(section);
  };
  return (
    <Link to={`/#${section}`} onClick={onClick} className={buttonClasses(variant, size, className)}>
      {children}
    </Link>
  );
}
