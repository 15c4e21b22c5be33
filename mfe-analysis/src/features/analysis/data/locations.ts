import { ANALYSIS_LOCATIONS, DEFAULT_ANALYSIS_LOCATION, NO_LOCATION_LABEL } from '@site/contracts/analysis-rules';

/** The location dropdown: the five towns, then none (value ''), which leaves location out of the request. */
export const LOCATION_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  ...ANALYSIS_LOCATIONS.map((l) => ({ value: l, label: l })),
  { value: '', label: NO_LOCATION_LABEL },
];

export { DEFAULT_ANALYSIS_LOCATION };

/** The note under the dropdown (spec section 5): none for Danville, the change for another town, the loss for none. */
export function locationNote(location: string): string | null {
  if (location === DEFAULT_ANALYSIS_LOCATION) return null;
  if (!location) return 'No location selected: competitive insights will not be included in this analysis.';
  return `Location changed to ${location}. A location is needed for competitive insights against businesses nearby.`;
}
