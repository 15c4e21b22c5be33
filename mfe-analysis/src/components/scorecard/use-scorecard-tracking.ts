import { useEffect, useRef, type RefObject } from 'react';
import { track } from '@site/ui';
import type { TrackingProps } from '@site/contracts/events';
import type { ScorecardData } from './normalize-result';

/** 'scorecard_displayed' once per result, and 'recommendations_view' once when the action plan comes into view. */
export function useScorecardTracking(data: ScorecardData, recommendationsRef: RefObject<HTMLElement | null>) {
  const key = data.id ?? `${data.businessName}|${data.analyzedAt}`;
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    track('scorecard_displayed', {
      reportId: data.id,
      businessType: data.businessType,
      overallScore: data.scores.overall.score,
      simulated: data.mockSources.length > 0,
      hasPrevious: data.previous !== null,
    });
    // Only the result's identity matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    const el = recommendationsRef.current;
    if (!el) return;
    const props: TrackingProps = { reportId: data.id, count: data.recommendations.length };
    if (typeof IntersectionObserver === 'undefined') return;
    let sent = false;
    const io = new IntersectionObserver((entries) => {
      if (sent || !entries.some((e) => e.isIntersecting)) return;
      sent = true;
      track('recommendations_view', props);
      io.disconnect();
    });
    io.observe(el);
    return () => io.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, recommendationsRef]);
}
