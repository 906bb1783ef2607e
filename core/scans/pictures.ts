/** The element pictures a scan may carry: the scanner takes no more, and the service keeps no more. */
export const SCREENSHOTS_PER_PAGE = 20;
export const SCREENSHOTS_PER_SCAN = 500;
