/**
 * The one way the site labels outcome figures (percentages, before/after numbers, stories): illustrative
 * scenarios of what automation like this can do, never audited results of named clients.
 */
export const ILLUSTRATIVE_NOTE = 'Illustrative scenarios: the figures show the kind of change to expect, not audited results.';
