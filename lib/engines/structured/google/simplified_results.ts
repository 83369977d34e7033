/**
 * The wording shared by the seven features Google retired on 2025-06-12
 * (https://developers.google.com/search/blog/2025/06/simplifying-search-results, read 2026-11-26).
 */

/** What the retirement means. */
export const JUNE_2025 =
  'Google phased this feature out on 2025-06-12 ("Simplifying the search results page").';

/** What the markup still does: Google's announcement says uses outside Search are not affected. */
export const JUNE_2025_AFTERLIFE =
  'The markup does no harm; Google says "the use of these structured data types outside of Google Search (and dependent features) is not affected".';
