import { track } from '@site/ui';

/** A call to action on a case-study page (the spec's case-study event carries no arguments). */
export const trackCaseStudyClick = () => track('case_study_click');
