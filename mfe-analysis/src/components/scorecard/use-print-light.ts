import { useEffect } from 'react';

/**
 * Prints in light colours even in dark mode: the print stylesheet resets the theme tokens, and while the print
 * dialog is open the `dark` class is lifted so the few dark-only shades (badges, warnings) print light too.
 */
export function usePrintLight() {
  useEffect(() => {
    const root = document.documentElement;
    let wasDark = false;
    const before = () => {
      wasDark = root.classList.contains('dark');
      if (wasDark) root.classList.remove('dark');
    };
    const after = () => {
      if (wasDark) root.classList.add('dark');
      wasDark = false;
    };
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      after();
    };
  }, []);
}
