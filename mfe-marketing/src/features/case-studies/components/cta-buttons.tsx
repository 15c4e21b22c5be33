import { Button, track, useGoToSection } from '@site/ui';

/** A call-to-action button that records the click and goes to a home-page section (/#id, then scroll). */
export function SectionButton({ section, label, variant = 'inverse' }: { section: 'contact' | 'services'; label: string; variant?: 'inverse' | 'primary' | 'secondary' }) {
  const goToSection = useGoToSection();
  return (
    <Button
      size="lg"
      variant={variant}
      onClick={() => {
        track('case_study_click');
        goToSection(section);
      }}
    >
      {label}
    </Button>
  );
}

