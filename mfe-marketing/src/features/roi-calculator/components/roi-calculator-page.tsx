import { PageHeader, usePageMeta } from '@site/ui';
import { roiMeta } from '../data/meta';

export function RoiCalculatorPage() {
  usePageMeta(roiMeta.title, roiMeta.description);
  return <PageHeader title="AI Automation ROI Calculator" lead="See what automating your repetitive work is worth." />;
}
