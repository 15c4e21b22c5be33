import { ContactSection } from '../features/contact/components/contact-section';
import { HomePage as HomeLayout } from '../features/home/components/home-page';
import { RoiCalculator } from '../features/roi-calculator/components/roi-calculator';

/** The `/` route: the home page with the calculator and contact features composed in. */
export function HomePage() {
  return <HomeLayout calculator={<RoiCalculator shareHash="#roi-calculator" />} contact={<ContactSection />} />;
}
