import { Link } from 'react-router-dom';
import { buttonClasses } from '@site/ui';

/** The closing call to action of every blog page: a consultation or the ROI calculator. */
export function BlogCta() {
  return (
    <section aria-labelledby="blog-cta-heading" className="mt-16 rounded-2xl bg-gradient-to-br from-blue-700 to-blue-900 px-6 py-10 text-center text-white sm:px-12">
      <h2 id="blog-cta-heading" className="text-2xl font-bold sm:text-3xl">
        Ready to put automation to work?
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-blue-100">
        Book a free 30-minute consultation, or see what automation could save your business with our ROI calculator.
      </p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/#contact" className={buttonClasses('inverse', 'lg')}>
          Schedule Free Consultation
        </Link>
        <Link to="/roi-calculator" className={buttonClasses('primary', 'lg', 'border border-white/40')}>
          Calculate Your ROI
        </Link>
      </div>
    </section>
  );
}
