import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { useGoToSection } from '@site/ui';
import type { NavItem } from '../../../config/navigation';

/**
 * A header link. Section items are real `/#id` anchors (they work without JavaScript); with it, they
 * scroll in place on the home page and go home first elsewhere.
 */
export function NavLink({ item, className, onNavigate }: { item: NavItem; className: string; onNavigate?: () => void }) {
  const goToSection = useGoToSection();
  if ('to' in item)
    return (
      <Link to={item.to} className={className} onClick={onNavigate}>
        {item.label}
      </Link>
    );
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onNavigate?.();
    goToSection(item.section);
  };
  return (
    <a href={`/#${item.section}`} className={className} onClick={onClick}>
      {item.label}
    </a>
  );
}
