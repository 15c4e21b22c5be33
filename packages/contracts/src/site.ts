/** The business's name, as every page title, feed and structured-data block spells it. */
export const SITE_NAME = 'Tri-Valley AI Automation';

/** Title of the not-found page, in the served HTML and after client navigation alike. */
export const NOT_FOUND_TITLE = `Page not found | ${SITE_NAME}`;

/**
 * The attribute of `<html>` the server writes its PUBLIC_ORIGIN in, so the browser's canonical link and og:url name the
 * site the server names, not whatever host the page was opened by.
 */
export const SITE_ORIGIN_ATTRIBUTE = 'data-site-origin';
